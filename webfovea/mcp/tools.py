"""MCP tools generated from the action specs: one tool per offered action, plus `observe`.

The specs in webfovea/actions/ are the single source (DESIGN principle 2): a tool's name,
description and input schema are read from its spec's name, purpose, rule, feedback and
parameters, the way Playwright MCP keeps a tool's capability, schema and handler together.
There is no second, hand-written list of actions here, and no second schema table: the input
schema is the model tools' (`actions/tools.object_schema`), with points in the observe image.

A tool call goes to `Harness.step` as the tool call it is (`parsing/tool_call.py` binds it,
as it binds a native-tool model's call), so it meets the same parser, executor, feedback,
guardrails and budgets as a `bench` step.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import jsonschema

from webfovea.actions.spec import ActionSpec
from webfovea.actions.tools import object_schema
from webfovea.config import Component, HarnessConfig

OBSERVE = "observe"

# A point in the text grammar, '<|box_start|>(x,y)<|box_end|>': the chat-template tokens of
# the prompt line, which an MCP client's tool title must not carry (it passes arrays).
_BOX = re.compile(r"<\|box_start\|>\(([^)]*)\)<\|box_end\|>")
_QUOTED = re.compile(r"'(\[[^\]']*\])'")  # one point, quoted: an array, unquoted
_TOKEN = re.compile(r"<\|[a-z_]+\|>")


class ToolArgumentError(ValueError):
    """Arguments a tool's schema rejects; str(e) is the note the client reads."""


def coordinate_words(config: HarnessConfig) -> str:
    """Where a point is, in the coordinate space of the config's conventions row."""
    if config.coordinate_convention == "norm1000":
        return "on a 0-1000 grid over the latest observe image (x right, y down, origin top-left)"
    return "in pixels of the latest observe image (x right, y down, origin top-left)"


def point_words(config: HarnessConfig) -> str:
    """How a point is written, in the coordinate space of the config's conventions row."""
    return "[x, y] " + coordinate_words(config)


def input_schema(spec: ActionSpec, config: HarnessConfig) -> dict[str, Any]:
    """The spec's arguments as the model's tools have them, points in the observe image's space."""
    return object_schema(spec, coordinate_words(config))


def title(spec: ActionSpec) -> str:
    """The spec's call line as an MCP client writes it: points as `[x, y]` arrays, no tokens."""
    shown = _BOX.sub(lambda m: "[" + ", ".join(m.group(1).split(",")) + "]", spec.signature)
    return _TOKEN.sub("", _QUOTED.sub(r"\1", shown))


def description(spec: ActionSpec, config: HarnessConfig) -> str:
    """The spec's prompt line, its rule (when tool triggers are on), budget and feedback."""
    parts = [spec.purpose]
    if spec.rule and config.on(Component.tool_triggers):
        parts.append(f"Rule: {spec.rule}")
    if spec.budget is not None and config.on(Component.budgets):
        parts.append(f"At most {spec.budget} per task.")
    if spec.feedback:
        parts.append(f"Returns: {spec.feedback}")
    return _TOKEN.sub("", " ".join(parts))


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
                "title": title(spec),
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
