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

_POINT: dict[str, Any] = {
    "type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
    "description": "[x, y] in the screenshot's coordinates",
}  # fmt: skip

_SCHEMA_BY_KIND: dict[str, dict[str, Any]] = {
    "point": _POINT,
    "points": {"type": "array", "items": _POINT, "minItems": 1, "description": "a list of [x, y] points"},
    "box": {
        "type": "array",
        "items": {"type": "number"},
        "minItems": 4,
        "maxItems": 4,
        "description": "[x1, y1, x2, y2]: the region's top-left and bottom-right corners in the "
        "screenshot's coordinates",
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


def tool_def(spec: ActionSpec, *, with_rule: bool = False, with_budget: bool = True) -> ToolDef:
    properties = {p.name: dict(_SCHEMA_BY_KIND[p.kind]) for p in spec.params}
    required = [p.name for p in spec.params if not p.optional]
    description = spec.purpose
    if with_budget and spec.budget is not None:
        description += f" At most {spec.budget} per task."
    if with_rule and spec.rule:
        description += f" Rule: {spec.rule}"
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ToolDef(
        spec.name,
        description,
        schema,
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
