"""MCP tools generated from the action specs: one tool per offered action, plus `observe`.

The specs in webfovea/actions/ are the single source (DESIGN principle 2): a tool's name,
description and input schema are read from its spec's name, purpose, rule, feedback and
parameters, the way Playwright MCP keeps a tool's capability, schema and handler together.
There is no second, hand-written list of actions here.

A tool call becomes the reply text the model would have written in the text grammar
(`Action: fill(start_box='<|box_start|>(412,230)<|box_end|>', content='Ada')`), so it goes
through `Harness.step` exactly as a `bench` reply does: the same parser, executor,
feedback, guardrails and budgets. `call_text` is the inverse of the parser for the values a
schema admits; tests/mcp/test_mcp_tools.py proves the round trip for every spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jsonschema

from webfovea.actions.spec import ActionSpec
from webfovea.config import Component, HarnessConfig
from webfovea.types import ParamSpec

OBSERVE = "observe"
DIRECTIONS = ("up", "down", "left", "right")


class ToolArgumentError(ValueError):
    """Arguments a tool's schema rejects; str(e) is the note the client reads."""


def point_words(config: HarnessConfig) -> str:
    """How a point is written, in the coordinate space of the config's conventions row."""
    if config.coordinate_convention == "norm1000":
        return "[x, y] on a 0-1000 grid over the latest observe image (x right, y down, origin top-left)"
    return "[x, y] in pixels of the latest observe image (x right, y down, origin top-left)"


def _point_schema(config: HarnessConfig) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "number"},
        "minItems": 2,
        "maxItems": 2,
        "description": point_words(config),
    }


def param_schema(param: ParamSpec, config: HarnessConfig) -> dict[str, Any]:
    """The JSON schema of one parameter, by its kind (webfovea/types.py lists the kinds)."""
    kind = param.kind
    if kind == "point":
        return _point_schema(config)
    if kind == "points":
        return {
            "type": "array",
            "items": _point_schema(config),
            "minItems": 1,
            "description": "one or more points, each " + point_words(config),
        }
    if kind == "box":
        return {
            "type": "array",
            "items": {"type": "number"},
            "minItems": 4,
            "maxItems": 4,
            "description": "[x1, y1, x2, y2]: a region's top-left and bottom-right corners, each "
            + point_words(config).removeprefix("[x, y] "),
        }
    if kind == "direction":
        return {"type": "string", "enum": list(DIRECTIONS)}
    if kind == "key":
        return {
            "type": "string",
            "description": "space-separated key names, e.g. 'enter', 'ctrl a', 'escape'",
        }
    if kind in ("text", "answer"):
        return {"type": "string"}
    if kind == "ref":
        return {
            "type": "string",
            "description": "an element reference from the latest snapshot, e.g. 'e12' or 'f3e12'",
        }
    raise ValueError(f"parameter {param.name!r} has a kind the MCP schema does not know: {kind!r}")


def input_schema(spec: ActionSpec, config: HarnessConfig) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {p.name: param_schema(p, config) for p in spec.params},
        "required": [p.name for p in spec.params if not p.optional],
        "additionalProperties": False,
    }


def description(spec: ActionSpec, config: HarnessConfig) -> str:
    """The spec's prompt line, its rule (when tool triggers are on), budget and feedback."""
    parts = [spec.purpose]
    if spec.rule and config.on(Component.tool_triggers):
        parts.append(f"Rule: {spec.rule}")
    if spec.budget is not None and config.on(Component.budgets):
        parts.append(f"At most {spec.budget} per task.")
    if spec.feedback:
        parts.append(f"Returns: {spec.feedback}")
    return " ".join(parts)


def observe_description(config: HarnessConfig) -> str:
    return (
        "Take the current screenshot of the page (the exact image the harness would send a model, at most "
        f"{config.screenshot_cap_width}x{config.screenshot_cap_height}) with the page URL and the note about "
        f"the last action. Points of the other tools are {point_words(config)}."
    )


def tool_list(specs: Sequence[ActionSpec], config: HarnessConfig) -> list[dict[str, Any]]:
    """The tools as plain dicts (name, title, description, inputSchema): `observe` first,
    then one per offered action in prompt order."""
    names = [s.name for s in specs]
    if OBSERVE in names:
        raise ValueError(f"an action is named {OBSERVE!r}: it would hide the observation tool")
    tools = [
        {
            "name": OBSERVE,
            "title": "Observe the page",
            "description": observe_description(config),
            "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        }
    ]
    for spec in specs:
        tools.append(
            {
                "name": spec.name,
                "title": spec.signature,
                "description": description(spec, config),
                "inputSchema": input_schema(spec, config),
            }
        )
    return tools


def check_arguments(
    spec: ActionSpec, arguments: dict[str, Any] | None, config: HarnessConfig
) -> dict[str, Any]:
    """The arguments, validated against the spec's schema; ToolArgumentError says what is wrong."""
    args = dict(arguments or {})
    try:
        jsonschema.validate(args, input_schema(spec, config))
    except jsonschema.ValidationError as e:
        where = ".".join(str(p) for p in e.absolute_path)
        raise ToolArgumentError(
            f"{spec.name}: {f'{where}: ' if where else ''}{e.message}. Expected: {spec.signature}"
        ) from None
    return args


# ------------------------------------------------------------------ tool call -> reply text


def _number(v: float) -> str:
    text = f"{float(v):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _box(point: Sequence[float]) -> str:
    """A point, or a region's four numbers, in the UI-TARS box tokens."""
    return f"<|box_start|>({','.join(_number(v) for v in point)})<|box_end|>"


_ESCAPE = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _quoted(text: str) -> str:
    """A single-quoted literal the parser decodes back to `text` (values.decode_escapes)."""
    return "'" + "".join(_ESCAPE.get(ch, ch) for ch in text) + "'"


def _value(param: ParamSpec, value: Any) -> str:
    if param.kind in ("point", "box"):
        return _quoted(_box(value))
    if param.kind == "points":
        return _quoted(" ".join(_box(p) for p in value))
    return _quoted(str(value))


def call_text(spec: ActionSpec, args: dict[str, Any]) -> str:
    """The reply a text-grammar model would write for this call (keyword arguments, spec order)."""
    inner = ", ".join(f"{p.name}={_value(p, args[p.name])}" for p in spec.params if p.name in args)
    return f"Action: {spec.name}({inner})"
