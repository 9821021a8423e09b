"""The offered actions as tools for native tool use, generated from the action specs.

One spec per action stays the single source: a tool's name, description and argument
schema come from the spec's name, purpose, rule and `params`, so a tool cannot drift from
what the parser binds and the executor runs. Points are `[x, y]` arrays in the model's
coordinate space (the prompt says which); `points` is a list of them; a region (`box`) is
`[x1, y1, x2, y2]`, the shape of Claude's computer-tool zoom `region`.

Which actions a provider's computer tool already covers (clicks, drag, scroll, hover,
typing, keys, wait) is named here too, so the client that offers the computer tool drops
those from the list; `parsing/computer_calls.py` maps the computer tool's actions onto them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webfovea.actions.computer_tool import COMPUTER_COVERED, COMPUTER_NEEDS, OPENAI_COVERED
from webfovea.actions.spec import ActionSpec
from webfovea.models.base import ToolDef

SCREENSHOT = "in the screenshot's coordinates"  # where a model's points are (the prompt says which)


def param_schema(kind: str, where: str = SCREENSHOT) -> dict[str, Any]:
    """The JSON schema of a parameter of this kind (webfovea/types.py lists the kinds), for the
    model's tools and the MCP server's alike; `where` says in which space a point is given."""
    point = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    schemas: dict[str, dict[str, Any]] = {
        "point": {**point, "description": f"[x, y] {where}"},
        "points": {
            "type": "array",
            "items": {**point, "description": f"[x, y] {where}"},
            "minItems": 1,
            "description": "a list of [x, y] points",
        },
        "box": {
            "type": "array",
            "items": {"type": "number"},
            "minItems": 4,
            "maxItems": 4,
            "description": f"[x1, y1, x2, y2]: the region's top-left and bottom-right corners {where}",
        },
        "direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
        "text": {"type": "string"},
        "answer": {"type": "string", "description": "the answer ('' if it cannot be reached)"},
        "key": {"type": "string", "description": "key names separated by spaces, e.g. 'enter' or 'ctrl c'"},
        "ref": {
            "type": "string",
            "pattern": "^(f\\d+)?e\\d+$",
            "description": "a reference from the accessibility snapshot, e.g. 'e12' or 'f3e12'",
        },
    }
    if kind not in schemas:
        raise ValueError(f"a parameter kind no tool schema knows: {kind!r}")
    return schemas[kind]


def object_schema(spec: ActionSpec, where: str = SCREENSHOT) -> dict[str, Any]:
    """The schema of a call's arguments: one property per parameter of the spec, in its order."""
    return {
        "type": "object",
        "properties": {p.name: param_schema(p.kind, where) for p in spec.params},
        "required": [p.name for p in spec.params if not p.optional],
        "additionalProperties": False,
    }


def tool_def(spec: ActionSpec, *, with_rule: bool = False, with_budget: bool = True) -> ToolDef:
    description = spec.purpose
    if with_budget and spec.budget is not None:
        description += f" At most {spec.budget} per task."
    if with_rule and spec.rule:
        description += f" Rule: {spec.rule}"
    return ToolDef(
        spec.name,
        description,
        object_schema(spec),
        computer_covered=spec.name in COMPUTER_COVERED,
        openai_computer_covered=spec.name in OPENAI_COVERED,
        computer_needs=COMPUTER_NEEDS.get(spec.name),
    )


def tool_defs(
    specs: Sequence[ActionSpec], *, with_rules: bool = False, with_budgets: bool = True
) -> list[ToolDef]:
    """The tools for the offered specs, in prompt order. Rules stay in the system prompt by
    default (one place, as in the text grammar); `with_rules` copies them into descriptions."""
    return [tool_def(s, with_rule=with_rules, with_budget=with_budgets) for s in specs]
