"""A computer-tool call (Claude's or OpenAI's) -> our action name and arguments, by the tables in
actions/computer_tool.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from webfovea.actions.computer_tool import (
    COMPUTER_ACTIONS,
    KEY_NAMES,
    NOT_OFFERED,
    OPENAI_ACTIONS,
    OPENAI_NOT_OFFERED,
)
from webfovea.types import ParamSpec


def _key_names(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    parts = [p.strip().lower() for p in value.replace("+", " ").split()]
    return " ".join(KEY_NAMES.get(p, p) for p in parts)


def computer_to_call(
    inp: dict[str, Any], specs: Mapping[str, Sequence[ParamSpec]]
) -> tuple[str, dict[str, Any]] | str:
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


def _xy(inp: dict[str, Any], x: str = "x", y: str = "y") -> list[Any] | None:
    return [inp[x], inp[y]] if x in inp and y in inp else None


def openai_computer_to_call(inp: dict[str, Any]) -> tuple[str, dict[str, Any]] | str:
    """One OpenAI computer action (`{"type": "click", "x": .., "y": .., "button": ..}`) -> our call."""
    kind = str(inp.get("type") or "")
    button = str(inp.get("button") or "left")
    key = kind if kind != "click" or button == "left" else f"{kind}:{button}"
    if key in OPENAI_NOT_OFFERED:
        return f"The computer action `{key}` is not executed here: {OPENAI_NOT_OFFERED[key]}"
    if key not in OPENAI_ACTIONS:
        return f"Unknown computer action `{key or '(none)'}`; known: {', '.join([*OPENAI_ACTIONS, *OPENAI_NOT_OFFERED])}."
    name, shape = OPENAI_ACTIONS[key]
    args: dict[str, Any] = {}
    if shape == "xy":
        args["start_box"] = _xy(inp)
    elif shape == "path":
        raw_path = inp.get("path")
        path: list[Any] = raw_path if isinstance(raw_path, list) else []
        if len(path) >= 2 and all(isinstance(p, dict) for p in (path[0], path[-1])):
            args["start_box"], args["end_box"] = _xy(path[0]), _xy(path[-1])
    elif shape == "scroll":
        args["start_box"] = _xy(inp)
        dx, dy = float(inp.get("scroll_x") or 0), float(inp.get("scroll_y") or 0)
        if abs(dy) >= abs(dx) and dy:
            args["direction"] = "down" if dy > 0 else "up"
        elif dx:
            args["direction"] = "right" if dx > 0 else "left"
    elif shape == "keys" and isinstance(inp.get("keys"), list):
        args["key"] = _key_names(" ".join(str(k) for k in inp["keys"]))
    elif shape == "text":
        args["content"] = inp.get("text")
    return name, {k: v for k, v in args.items() if v is not None}
