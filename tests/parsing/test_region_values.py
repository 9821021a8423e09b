"""The `box` kind (zoom's region): every written form of a region reads as the same four
numbers, in the text grammar, in a tool call and in Claude's computer-tool zoom; anything
that is not exactly one region is refused with the expected form."""

from __future__ import annotations

import pytest

from webfovea.actions.catalog import SPECS, parser_specs
from webfovea.actions.tools import tool_defs
from webfovea.models.base import ToolCall
from webfovea.parsing import parse_reply
from webfovea.parsing.tool_call import parse_tool_call
from webfovea.parsing.values import parse_box

P = parser_specs(SPECS)
WANT = (10.0, 20.0, 300.0, 80.5)


@pytest.mark.parametrize(
    "text",
    [
        "(10,20,300,80.5)",
        "[10, 20, 300, 80.5]",
        "(10,20),(300,80.5)",
        "(10, 20) (300, 80.5)",
        "[[10,20],[300,80.5]]",
        "<|box_start|>(10,20,300,80.5)<|box_end|>",
        "<|box_start|>(10,20),(300,80.5)<|box_end|>",
        "<|box_start|>(10,20)<|box_end|><|box_start|>(300,80.5)<|box_end|>",
        "<bbox>10 20 300 80.5</bbox>",
        "10, 20, 300, 80.5",
        "'(10,20,300,80.5)'",
    ],
)
def test_every_region_form_reads_as_four_numbers(text):
    assert parse_box(text) == WANT


@pytest.mark.parametrize(
    "text", ["(10,20)", "(10,20,300)", "(1,2,3,4),(5,6)", "(1,2),(3,4),(5,6)", "", "top left"]
)
def test_what_is_not_one_region_is_none(text):
    assert parse_box(text) is None


@pytest.mark.parametrize(
    "reply",
    [
        "Action: zoom(region='<|box_start|>(10,20,300,80.5)<|box_end|>')",
        "Action: zoom(region='(10,20),(300,80.5)')",
        "Action: zoom(region='[10, 20, 300, 80.5]')",
        "Action: zoom('<bbox>10 20 300 80.5</bbox>')",
        "Action: zoom(10, 20, 300, 80.5)",
        "Action: zoom(box='(10,20,300,80.5)')",
        "Action: magnify(region='(10,20,300,80.5)')",
    ],
)
def test_text_replies_bind_zoom_with_the_region(reply):
    parsed = parse_reply(f"Thought: small digits\n{reply}", P)
    assert parsed.rejection is None, parsed.rejection
    assert parsed.action.name == "zoom" and parsed.action.args == {"region": WANT}


def test_a_text_reply_without_a_region_is_refused_with_the_form():
    parsed = parse_reply("Action: zoom(region='(10,20)')", P)
    assert parsed.action is None or parsed.rejection is not None
    assert (
        "region" in parsed.rejection.reason
        and "zoom(region='<|box_start|>(x1,y1,x2,y2)<|box_end|>')" in parsed.rejection.reason
    )


@pytest.mark.parametrize(
    "value",
    [
        [10, 20, 300, 80.5],
        [[10, 20], [300, 80.5]],
        "(10,20,300,80.5)",
        "<|box_start|>(10,20),(300,80.5)<|box_end|>",
    ],
)
def test_tool_calls_read_the_region_and_history_shows_the_text_grammar(value):
    parsed = parse_tool_call(ToolCall("t1", "zoom", {"region": value}), P)
    assert parsed.rejection is None and parsed.action.args == {"region": WANT}
    assert parsed.action.raw == "zoom(region='<|box_start|>(10,20,300,80.5)<|box_end|>')"
    # What history shows parses back to the same action.
    again = parse_reply(f"Action: {parsed.action.raw}", P)
    assert again.action.args == parsed.action.args


def test_claude_computer_zoom_maps_onto_our_zoom():
    parsed = parse_tool_call(ToolCall("t1", "computer", {"action": "zoom", "region": [10, 20, 300, 80.5]}), P)
    assert (
        parsed.rejection is None and parsed.action.name == "zoom" and parsed.action.args == {"region": WANT}
    )


@pytest.mark.parametrize("value", [[1, 2, 3], [1, 2, 3, "4"], [True, 2, 3, 4], {"x1": 1}, 7])
def test_wrong_typed_regions_are_rejected_with_the_form(value):
    parsed = parse_tool_call(ToolCall("t1", "zoom", {"region": value}), P)
    assert parsed.action is None and "could not read region" in parsed.rejection.reason
    assert "Expected: zoom(region=" in parsed.rejection.reason


def test_the_tool_schema_is_an_array_of_four_numbers():
    zoom = next(t for t in tool_defs(SPECS) if t.name == "zoom")
    region = zoom.parameters["properties"]["region"]
    assert region["type"] == "array" and region["minItems"] == region["maxItems"] == 4
    assert region["items"] == {"type": "number"} and zoom.parameters["required"] == ["region"]
    assert zoom.computer_covered and zoom.computer_needs == "enable_zoom"
