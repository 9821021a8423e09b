"""Claude's computer-use tool (`computer_20250124` / `computer_20251124`) in terms of our specs.

The computer tool names its actions its own way; each that has a spec here maps onto it
with its arguments renamed, so a computer call goes through the same binder, executor,
budgets and feedback as any other reply (`parsing/computer_calls.py` applies this table).
The actions it covers are not offered again as tools of their own (`actions/tools.py`).
What has no spec is answered with what to use instead.
"""

from __future__ import annotations

from webfovea.models.base import CLAUDE_COMPUTER_CALL, OPENAI_COMPUTER_CALL

COMPUTER_TOOL_NAME = CLAUDE_COMPUTER_CALL

# computer action -> (our action, {their argument: our argument})
COMPUTER_ACTIONS: dict[str, tuple[str, dict[str, str]]] = {
    "left_click": ("click", {"coordinate": "start_box"}),
    "double_click": ("left_double", {"coordinate": "start_box"}),
    "right_click": ("right_single", {"coordinate": "start_box"}),
    "left_click_drag": ("drag", {"start_coordinate": "start_box", "coordinate": "end_box"}),
    "mouse_move": ("hover", {"coordinate": "start_box"}),
    "scroll": ("scroll", {"coordinate": "start_box", "scroll_direction": "direction"}),
    "type": ("type", {"text": "content"}),
    "key": ("hotkey", {"text": "key"}),
    "wait": ("wait", {}),
    "zoom": ("zoom", {"region": "region"}),  # computer_20251124 with enable_zoom: our fovea
}

# Our actions the computer tool covers only when its definition carries a flag (which only
# some tool versions accept: the Anthropic client knows which). Elsewhere they stay tools.
COMPUTER_NEEDS: dict[str, str] = {"zoom": "enable_zoom"}

# Computer actions without a spec, and what the model is told to use instead.
NOT_OFFERED: dict[str, str] = {
    "screenshot": "a fresh screenshot comes with every step; take an action instead.",
    "cursor_position": "the pointer position is not tracked; take an action instead.",
    "triple_click": "use left_click (or the fill tool to replace a field's text).",
    "middle_click": "use left_click.",
    "left_mouse_down": "use left_click_drag for a press-move-release.",
    "left_mouse_up": "use left_click_drag for a press-move-release.",
    "hold_key": "use key with a combination such as ctrl+a.",
}

# xdotool key names Claude writes -> the names our key arguments take.
KEY_NAMES: dict[str, str] = {
    "return": "enter",
    "escape": "esc",
    "page_up": "pageup",
    "page_down": "pagedown",
    "prior": "pageup",
    "next": "pagedown",
    "super": "meta",
    "control": "ctrl",
}

COMPUTER_COVERED: frozenset[str] = frozenset(name for name, _ in COMPUTER_ACTIONS.values())

# OpenAI's computer tool (Responses API: legacy `computer_use_preview` with one `action`,
# GA `computer` with a batch `actions[]`): action type (":button" for non-left clicks) ->
# (our action, how its arguments read): xy = x,y -> start_box; path = the drag path's first
# and last points; scroll = x,y + the sign of scroll_x/scroll_y; keys = keys[] -> key;
# text = text -> content; none = no argument.
OPENAI_COMPUTER_TOOL_NAME = OPENAI_COMPUTER_CALL
OPENAI_ACTIONS: dict[str, tuple[str, str]] = {
    "click": ("click", "xy"),
    "click:right": ("right_single", "xy"),
    "double_click": ("left_double", "xy"),
    "drag": ("drag", "path"),
    "move": ("hover", "xy"),
    "scroll": ("scroll", "scroll"),
    "keypress": ("hotkey", "keys"),
    "type": ("type", "text"),
    "wait": ("wait", "none"),
}
OPENAI_NOT_OFFERED: dict[str, str] = {
    "screenshot": "a fresh screenshot comes with every step; take an action instead.",
    "click:wheel": "use a left click.",
    "click:back": "use the back tool.",
    "click:forward": "forward navigation is not offered.",
}
OPENAI_COVERED: frozenset[str] = frozenset(name for name, _ in OPENAI_ACTIONS.values())
