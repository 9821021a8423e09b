"""webfovea's actions written as BrowserGym's high-level actions (its `coord`, `nav` and `chat`
subsets), for the AgentLab agent (agentlab.py): points go from the model's image to BrowserGym's
screenshot pixels through the step's `Shot`, as the executor maps them to CSS pixels.

This table is BrowserGym's action space, as `parsing/computer_calls.py` is a provider tool's:
one row per webfovea action that has a BrowserGym counterpart. Actions without one (select and
fill need an element id; find_text, zoom, … need the harness's page) are not offered to the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea.observation.capture import Shot
from webfovea.types import Action

Point = tuple[float, float]


def _xy(shot: Shot, point: Any) -> str:
    x, y = shot.to_css(float(point[0]), float(point[1]))
    return f"{round(x, 1)}, {round(y, 1)}"


def _scroll(shot: Shot, args: dict[str, Any]) -> str:
    step = round(shot.css_height / 2)  # about half a view, as the harness's scroll
    dx, dy = {"up": (0, -step), "down": (0, step), "left": (-step, 0), "right": (step, 0)}.get(
        str(args.get("direction") or "down"), (0, step)
    )
    point = args.get("start_box") or (shot.size[0] / 2, shot.size[1] / 2)
    return f"scroll_at({_xy(shot, point)}, {dx}, {dy})"


Row = Callable[[Shot, dict[str, Any]], str]
TABLE: dict[str, Row] = {
    "click": lambda s, a: f"mouse_click({_xy(s, a['start_box'])})",
    "left_double": lambda s, a: f"mouse_dblclick({_xy(s, a['start_box'])})",
    "right_single": lambda s, a: f"mouse_click({_xy(s, a['start_box'])}, button='right')",
    "drag": lambda s, a: f"mouse_drag_and_drop({_xy(s, a['start_box'])}, {_xy(s, a['end_box'])})",
    "hover": lambda s, a: f"mouse_move({_xy(s, a['start_box'])})",
    "scroll": _scroll,
    "type": lambda s, a: f"keyboard_type({str(a.get('content', ''))!r})",
    "hotkey": lambda s, a: f"keyboard_press({str(a.get('key', ''))!r})",
    "wait": lambda s, a: "noop(1000)",
    "back": lambda s, a: "go_back()",
    "finished": lambda s, a: f"send_msg_to_user({str(a.get('content', ''))!r})",
}
OFFERED = frozenset(TABLE)


def to_browsergym(action: Action, shot: Shot) -> str:
    """The action as one BrowserGym high-level action string."""
    return TABLE[action.name](shot, dict(action.args))
