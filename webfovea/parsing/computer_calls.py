"""A computer-tool call -> our action name and arguments, by the table in actions/computer_tool.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from webfovea.actions.computer_tool import COMPUTER_ACTIONS, KEY_NAMES, NOT_OFFERED
from webfovea.types import ParamSpec


def _key_names(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    parts = [p.strip().lower() for p in value.replace("+", " ").split()]
    return " ".join(KEY_NAMES.get(p, p) for p in parts)


def computer_to_call(inp: dict[str, Any], specs: Mapping[str, Sequence[ParamSpec]]) -> tuple[str, dict[str, Any]] | str:
    """A computer tool `input` -> (our action name, raw arguments), or why it cannot run."""
    action = str(inp.get("action") or "")
    if action in NOT_OFFERED:
        return f"The computer action `{action}` is not executed here: {NOT_OFFERED[action]}"
    if action not in COMPUTER_ACTIONS:
        known = ", ".join([*COMPUTER_ACTIONS, *NOT_OFFERED])
        return f"Unknown computer action `{action or '(none)'}`; the computer tool's actions are: {known}."
    name, renames = COMPUTER_ACTIONS[action]
    args = {ours: inp[theirs] for theirs, ours in renames.items() if theirs in inp}
    kinds = {p.name: p.kind for p in specs.get(name, ())}
    # xdotool names (ctrl+Return) become the harness's key names (ctrl enter).
    return name, {k: _key_names(v) if kinds.get(k) == "key" else v for k, v in args.items()}
