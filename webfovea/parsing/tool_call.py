"""A tool call -> Action or Rejection: the native-tool twin of `reply.parse_reply`.

The call is bound against the same offered specs as a text reply and yields the same
`ParsedReply` (the thought is the text the model wrote beside the call; the history line
is the call written in the text grammar), so the executor, budgets, feedback and records
cannot tell the two interfaces apart. Only the first call of a response is parsed; the
client answers the others with "not executed". Never raises on model output.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from webfovea.actions.computer_tool import COMPUTER_TOOL_NAME, OPENAI_COMPUTER_TOOL_NAME
from webfovea.browser.snapshot_text import normalise_ref
from webfovea.guardrails.forbidden import DEFAULT_FORBIDDEN
from webfovea.models.base import ToolCall
from webfovea.parsing.computer_calls import computer_to_call, openai_computer_to_call
from webfovea.parsing.reply import expected_form
from webfovea.parsing.tokens import strip_template_tokens, strip_value_tail
from webfovea.parsing.values import parse_box, parse_direction, parse_key, parse_point
from webfovea.types import Action, Box, ParamSpec, ParsedReply, Point, Rejection

__all__ = ["action_text", "parse_tool_call"]

_BOX_START, _BOX_END = "<|box_start|>", "<|box_end|>"


_ESCAPE = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _quote(text: str) -> str:
    """A single-quoted literal the parser decodes back to `text` (values.decode_escapes)."""
    return "'" + "".join(_ESCAPE.get(ch, ch) for ch in text) + "'"


def _num(v: float) -> str:
    """A coordinate as the parser reads it back: to a thousandth, never in exponent form."""
    text = f"{float(v):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _box(p: Point | Box) -> str:
    """A point, or a region's four numbers, between the UI-TARS box tokens."""
    return f"{_BOX_START}({','.join(_num(v) for v in p)}){_BOX_END}"


def action_text(action: Action) -> str:
    """The action in the text grammar, as history shows it (`click(start_box='<|box_start|>(1,2)<|box_end|>')`).
    The one serialiser of an action: `parse_reply` reads the line back to the same arguments."""
    parts = []
    for key, value in action.args.items():
        if isinstance(value, tuple):
            parts.append(f"{key}={_quote(_box(value))}")
        elif isinstance(value, list):
            parts.append(f"{key}={_quote(' '.join(_box(p) for p in value))}")
        else:
            parts.append(f"{key}={_quote(str(value))}")
    return f"{action.name}({', '.join(parts)})"


def _point(value: Any) -> Point | None:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        return float(value[0]), float(value[1])
    if isinstance(value, str):  # "[640, 360]" or "(640,360)": read as the text grammar would
        return parse_point(value)
    return None


def _numbers(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    )


def _region(value: Any) -> Box | None:
    """[x1, y1, x2, y2] (Claude's zoom `region`), [[x1, y1], [x2, y2]], or the text forms."""
    if _numbers(value) and len(value) == 4:
        return float(value[0]), float(value[1]), float(value[2]), float(value[3])
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(_numbers(v) and len(v) == 2 for v in value)
    ):
        (x1, y1), (x2, y2) = value
        return float(x1), float(y1), float(x2), float(y2)
    if isinstance(value, str):
        return parse_box(value)
    return None


def _convert(kind: str, value: Any, strip_tokens: bool, stripped: list[str]) -> Any:
    if kind == "point":
        return _point(value)
    if kind == "box":
        return _region(value)
    if kind == "points":
        if not isinstance(value, list) or not value:
            return None
        points = [_point(v) for v in value]
        return None if any(p is None for p in points) else points
    if not isinstance(value, str):
        return str(value) if kind == "direction" and value is not None else None
    if kind == "direction":
        return parse_direction(value)
    if kind == "key":
        return parse_key(value)
    if kind == "ref":
        return normalise_ref(value)
    text = value
    if strip_tokens:
        text, removed = strip_value_tail(text)
        stripped.extend(removed)
    return text.strip() if kind == "answer" else text


def parse_tool_call(
    call: ToolCall,
    specs: Mapping[str, Sequence[ParamSpec]],
    *,
    thought: str = "",
    strip_tokens: bool = True,
    forbidden: Mapping[str, str] | None = None,
) -> ParsedReply:
    """Bind one tool call to the offered actions (the computer tool's calls mapped first)."""
    forbidden = DEFAULT_FORBIDDEN if forbidden is None else forbidden
    stripped: list[str] = []
    if strip_tokens:
        thought, stripped = strip_template_tokens(thought)
    thought = thought.strip()
    name, raw_args = call.name, dict(call.input) if isinstance(call.input, dict) else {}

    def rejected(reason: str, action: Action | None = None) -> ParsedReply:
        shown = action or Action(name, raw_args, f"{name}({raw_args})")
        cleaned = (f"Thought: {thought}\n" if thought else "") + f"Action: {shown.raw}"
        return ParsedReply(
            raw=_raw(call, thought),
            cleaned=cleaned,
            thought=thought,
            action=None,
            rejection=Rejection(reason, shown),
            stripped_tokens=stripped,
        )

    if name in (COMPUTER_TOOL_NAME, OPENAI_COMPUTER_TOOL_NAME):
        mapped = (
            computer_to_call(raw_args, specs)
            if name == COMPUTER_TOOL_NAME
            else openai_computer_to_call(raw_args)
        )
        if isinstance(mapped, str):
            return rejected(mapped)
        name, raw_args = mapped
    reason = next((msg for n, msg in forbidden.items() if n.lower() == name.lower()), None)
    if reason is not None:
        return rejected(f"`{name}` is not allowed. {reason}")
    if name not in specs:
        return rejected(f"Unknown tool `{call.name}`. Available tools: {', '.join(specs) or 'none'}.")
    params = list(specs[name])
    form = expected_form(name, params)
    args: dict[str, Any] = {}
    by_name = {p.name: p for p in params}
    extra = sorted(set(raw_args) - set(by_name))
    if extra:
        return rejected(f"{name}: unexpected argument(s) {', '.join(extra)}. Expected: {form}")
    for p in params:
        value = raw_args.get(p.name)
        # Models often send "" for an optional argument they do not use (a ref beside a point).
        if value is None or (p.optional and p.kind not in ("text", "answer") and value == ""):
            if not p.optional:
                return rejected(f"{name}: missing required argument {p.name}. Expected: {form}")
            if p.kind in ("text", "answer"):
                args[p.name] = ""
            continue
        value = _convert(p.kind, raw_args[p.name], strip_tokens, stripped)
        if value is None:
            shown = str(raw_args[p.name])[:60]
            return rejected(
                f"{name}: could not read {p.name} from {shown!r} (wrong type or value). Expected: {form}"
            )
        args[p.name] = value
    action = Action(name, args)
    action.raw = action_text(action)
    cleaned = (f"Thought: {thought}\n" if thought else "") + f"Action: {action.raw}"
    return ParsedReply(
        raw=_raw(call, thought), cleaned=cleaned, thought=thought, action=action, stripped_tokens=stripped
    )


def _raw(call: ToolCall, thought: str) -> str:
    return (
        thought + "\n" if thought else ""
    ) + f"[tool_use {call.name} {json.dumps(call.input, ensure_ascii=False)}]"
