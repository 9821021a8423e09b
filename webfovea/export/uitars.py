"""A step's reply in UI-TARS-1.5's own action grammar (`--grammar uitars`).

Our text grammar is UI-TARS's earlier one (`click(start_box='<|box_start|>(x,y)<|box_end|>')`);
UI-TARS-1.5's browser and computer prompts write points as `<point>x y</point>` under `point`,
`start_point` and `end_point`, and keys lowercase, space-separated. Only the actions of its
action space are written; a step whose action has no counterpart (select, zoom, read_text,
hover, …) is left out of a `uitars` export and counted. Coordinates stay pixels of the image
as sent, as UI-TARS-1.5 reads them (absolute pixels of the image it is shown).
"""

from __future__ import annotations

from typing import Any

from webfovea.actions.catalog import ALIASES, BY_NAME

# The action space as UI-TARS-1.5's prompts list it: the signatures, for the system message.
SIGNATURES = (
    "click(point='<point>x1 y1</point>')",
    "left_double(point='<point>x1 y1</point>')",
    "right_single(point='<point>x1 y1</point>')",
    "drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')",
    "hotkey(key='ctrl c')",
    "type(content='xxx')",
    "scroll(point='<point>x1 y1</point>', direction='down or up or right or left')",
    "wait()",
    "finished(content='xxx')",
)

UITARS_SYSTEM = (
    "You are a GUI agent. You are given a task and your action history, with screenshots. "
    "You need to perform the next action to complete the task.\n\n"
    "## Output Format\nThought: ...\nAction: ...\n\n## Action Space\n" + "\n".join(SIGNATURES)
)


def _num(v: Any) -> str:
    f = float(v)
    return str(int(round(f))) if abs(f - round(f)) < 1e-9 else f"{f:g}"


def _point(v: Any) -> str | None:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return f"'<point>{_num(v[0])} {_num(v[1])}</point>'"
    return None


def _text(v: Any) -> str:
    s = str(v).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return f"'{s}'"


def uitars_action(action: dict[str, Any]) -> str | None:
    """The action as UI-TARS-1.5 writes it (its spec's `uitars` form, each param written by its
    kind); None when its action space has no such action or a param the form needs is missing."""
    name = str(action.get("name") or "")
    spec = BY_NAME.get(name) or BY_NAME.get(ALIASES.get(name, ""))
    if spec is None or spec.uitars is None:
        return None
    args = action.get("args") or {}
    values: dict[str, str] = {}
    for param in spec.params:
        value = args.get(param.name)
        if value is None:
            if param.optional and param.kind != "point":
                values[param.name] = "''"  # finished() with no answer: an empty one
            continue
        written = _written(param.kind, value)
        if written is not None:
            values[param.name] = written
    if "start_box" in values or "start_box" not in spec.uitars:
        form = spec.uitars
    else:  # a point UI-TARS may leave out (scroll: the page)
        form = spec.uitars.replace("point={start_box}, ", "")
    try:
        return form.format_map(values)
    except KeyError:
        return None


def _written(kind: str, value: Any) -> str | None:
    if kind == "point":
        return _point(value)
    if kind == "key":
        return _text(str(value).replace("+", " ").lower())
    return _text(value)


def uitars_reply(thought: str, action: dict[str, Any]) -> str | None:
    call = uitars_action(action)
    if call is None:
        return None
    return f"Thought: {thought.strip()}\nAction: {call}" if thought.strip() else f"Action: {call}"
