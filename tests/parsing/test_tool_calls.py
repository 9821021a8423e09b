"""A tool call binds to the same Action as the text reply that says the same thing; computer-tool
calls map onto the specs; wrong tools and arguments are rejected with what to write."""

from __future__ import annotations

import pytest

from webfovea.actions.catalog import SPECS, parser_specs
from webfovea.actions.tools import tool_defs
from webfovea.models.base import ToolCall
from webfovea.parsing import parse_reply
from webfovea.parsing.tool_call import parse_tool_call

P = parser_specs(SPECS)
B = "<|box_start|>({x},{y})<|box_end|>"


@pytest.mark.parametrize(
    ("text", "name", "inp"),
    [
        (f"click(start_box='{B.format(x=10, y=20)}')", "click", {"start_box": [10, 20]}),
        (
            f"drag(start_box='{B.format(x=1, y=2)}', end_box='{B.format(x=3, y=4)}')",
            "drag",
            {"start_box": [1, 2], "end_box": [3, 4]},
        ),
        (
            f"scroll(start_box='{B.format(x=5, y=6)}', direction='down')",
            "scroll",
            {"start_box": [5, 6], "direction": "down"},
        ),
        ("type(content='hanoi\\n')", "type", {"content": "hanoi\n"}),
        ("hotkey(key='ctrl a')", "hotkey", {"key": "Ctrl+A"}),
        (
            f"select(start_box='{B.format(x=7, y=8)}', option='Viet Nam')",
            "select",
            {"start_box": [7, 8], "option": "Viet Nam"},
        ),
        ("finished(content=' 42 ')", "finished", {"content": " 42 "}),
        ("find_text(text='Total')", "find_text", {"text": "Total"}),
    ],
)
def test_tool_call_and_text_reply_make_the_same_action(text, name, inp):
    by_text = parse_reply(f"Thought: t\nAction: {text}", P)
    by_tool = parse_tool_call(ToolCall("id1", name, inp), P, thought="t")
    assert by_text.rejection is None and by_tool.rejection is None
    assert by_tool.action.name == by_text.action.name
    assert by_tool.action.args == by_text.action.args


@pytest.mark.parametrize(
    ("inp", "name", "args"),
    [
        ({"action": "left_click", "coordinate": [3, 4]}, "click", {"start_box": (3.0, 4.0)}),
        ({"action": "double_click", "coordinate": [3, 4]}, "left_double", {"start_box": (3.0, 4.0)}),
        (
            {"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 4]},
            "drag",
            {"start_box": (1.0, 2.0), "end_box": (3.0, 4.0)},
        ),
        (
            {"action": "scroll", "coordinate": [5, 6], "scroll_direction": "up", "scroll_amount": 3},
            "scroll",
            {"start_box": (5.0, 6.0), "direction": "up"},
        ),
        ({"action": "key", "text": "ctrl+Return"}, "hotkey", {"key": "ctrl enter"}),
        ({"action": "type", "text": "abc"}, "type", {"content": "abc"}),
        ({"action": "mouse_move", "coordinate": [9, 9]}, "hover", {"start_box": (9.0, 9.0)}),
    ],
)
def test_claude_computer_actions_map_onto_specs(inp, name, args):
    parsed = parse_tool_call(ToolCall("c", "computer", inp), P)
    assert parsed.rejection is None and parsed.action.name == name and parsed.action.args == args


@pytest.mark.parametrize(
    ("inp", "name", "args"),
    [
        ({"type": "click", "x": 3, "y": 4, "button": "right"}, "right_single", {"start_box": (3.0, 4.0)}),
        (
            {"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 5, "y": 5}, {"x": 3, "y": 4}]},
            "drag",
            {"start_box": (1.0, 2.0), "end_box": (3.0, 4.0)},
        ),
        (
            {"type": "scroll", "x": 5, "y": 6, "scroll_x": 0, "scroll_y": -400},
            "scroll",
            {"start_box": (5.0, 6.0), "direction": "up"},
        ),
        ({"type": "keypress", "keys": ["CTRL", "L"]}, "hotkey", {"key": "ctrl l"}),
    ],
)
def test_openai_computer_actions_map_onto_specs(inp, name, args):
    parsed = parse_tool_call(ToolCall("c", "computer_use", inp), P)
    if name == "hotkey":  # ctrl+l is a browser hotkey: bound, then refused by the executor's block list
        assert parsed.action is not None and parsed.action.args == args
        return
    assert parsed.rejection is None and parsed.action.name == name and parsed.action.args == args


def test_bad_calls_are_rejected_with_the_expected_form():
    assert "Unknown tool `teleport`" in parse_tool_call(ToolCall("x", "teleport", {}), P).rejection.reason
    assert "not allowed" in parse_tool_call(ToolCall("x", "goto", {"url": "u"}), P).rejection.reason
    wrong = parse_tool_call(ToolCall("x", "click", {"start_box": [1, "a"]}), P).rejection.reason
    assert "could not read start_box" in wrong and "Expected: click(start_box=" in wrong
    assert (
        "unexpected argument(s) speed"
        in parse_tool_call(ToolCall("x", "wait", {"speed": 1}), P).rejection.reason
    )
    assert (
        "is not executed here"
        in parse_tool_call(
            ToolCall("x", "computer", {"action": "hold_key", "text": "shift"}), P
        ).rejection.reason
    )


def test_tool_schemas_come_from_the_specs():
    tools = {t.name: t for t in tool_defs(SPECS)}
    assert list(tools) == [s.name for s in SPECS]
    for spec in SPECS:
        props = tools[spec.name].parameters["properties"]
        assert list(props) == [p.name for p in spec.params]
        assert tools[spec.name].parameters["required"] == [p.name for p in spec.params if not p.optional]


def test_an_empty_optional_argument_counts_as_left_out():
    from webfovea.actions.targets import by_reference

    specs = parser_specs([by_reference(s, points=True) for s in SPECS if s.name == "click"])
    got = parse_tool_call(ToolCall("x", "click", {"start_box": [10, 20], "ref": ""}), specs)
    assert got.rejection is None and got.action.args == {"start_box": (10.0, 20.0)}
    bad = parse_tool_call(ToolCall("x", "click", {"ref": "not a ref"}), specs)
    assert bad.rejection is not None
