"""The MCP tool list is generated from the action specs, and a tool call means what it says:
the harness binds it to exactly the arguments the client sent, and the line the step is
recorded and shown as (the one serialiser, `action_text`) parses back to them too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webfovea.actions import catalog
from webfovea.config import make_config
from webfovea.mcp.tools import OBSERVE, ToolArgumentError, check_arguments, tool_list
from webfovea.models.base import ToolCall
from webfovea.observation.sizing import harness_config
from webfovea.parsing import parse_reply
from webfovea.parsing.tool_call import parse_tool_call

CONFIG = make_config()
SPECS = catalog.offered(CONFIG)
BY_NAME = {s.name: s for s in SPECS}


def _parse(text: str):
    return parse_reply(text, catalog.parser_specs(SPECS))


def _bound(spec, args):
    """The call as Harness.step binds it, and the recorded line of that step read back."""
    call = parse_tool_call(ToolCall("t", spec.name, args), catalog.parser_specs(SPECS))
    assert call.action is not None, call.rejection
    return [call, _parse("Action: " + call.action.raw)]


def test_every_offered_action_is_a_tool_with_its_specs_parameters():
    tools = {t["name"]: t for t in tool_list(SPECS, CONFIG)}
    assert list(tools) == [OBSERVE, *BY_NAME]
    for spec in SPECS:
        schema = tools[spec.name]["inputSchema"]
        assert list(schema["properties"]) == [p.name for p in spec.params]
        assert schema["required"] == [p.name for p in spec.params if not p.optional]
        assert spec.purpose in tools[spec.name]["description"]


def test_the_reference_profile_offers_only_its_actions():
    ref = make_config("reference")
    names = {t["name"] for t in tool_list(catalog.offered(ref), ref)} - {OBSERVE}
    assert names == {s.name for s in catalog.offered(ref)}
    assert "fill" not in names and "click" in names


@pytest.mark.parametrize("profile", ["webfovea", "winner", "reference"])
@pytest.mark.parametrize("observation", ["vision", "hybrid"])
def test_titles_and_descriptions_carry_no_chat_template_tokens(profile, observation):
    config = make_config(profile, observation=observation)
    specs = catalog.offered(config, snapshot=observation == "hybrid", refs=observation == "hybrid")
    tools = {t["name"]: t for t in tool_list(specs, config)}
    for t in tools.values():
        assert "<|" not in t["title"] and "<|" not in t["description"], t["name"]
    assert "start_box=[x, y]" in tools["click"]["title"]
    if "zoom" in tools:
        assert tools["zoom"]["title"] == "zoom(region=[x1, y1, x2, y2])"


def test_point_descriptions_follow_the_conventions_row():
    norm = harness_config(coordinate_convention="norm1000")
    tools = {t["name"]: t for t in tool_list(catalog.offered(norm), norm)}
    assert "0-1000" in tools["click"]["inputSchema"]["properties"]["start_box"]["description"]
    tools = {t["name"]: t for t in tool_list(SPECS, CONFIG)}
    assert "pixels" in tools["click"]["inputSchema"]["properties"]["start_box"]["description"]


def test_bad_arguments_are_refused_with_the_expected_form():
    with pytest.raises(ToolArgumentError, match="start_box") as e:
        check_arguments(BY_NAME["fill"], {"content": "x"}, CONFIG)
    assert "fill(start_box=" in str(e.value)
    with pytest.raises(ToolArgumentError, match="is not of type 'number'"):
        check_arguments(BY_NAME["click"], {"start_box": ["a", 2]}, CONFIG)
    with pytest.raises(ToolArgumentError, match="sideways"):
        check_arguments(BY_NAME["scroll"], {"direction": "sideways"}, CONFIG)
    with pytest.raises(ToolArgumentError, match="Additional properties"):
        check_arguments(BY_NAME["wait"], {"seconds": 3}, CONFIG)


def _example(kind: str):
    return {
        "point": [12.5, 700],
        "points": [[1, 2], [30.25, 40]],
        "direction": "left",
        "key": "ctrl a",
        "text": "it's a\\test\n",
        "answer": "42 km",
        "box": [10, 20.5, 300, 80],
    }[kind]


def test_every_spec_round_trips_through_the_parser():
    for spec in SPECS:
        args = {p.name: _example(p.kind) for p in spec.params}
        for parsed in _bound(spec, check_arguments(spec, args, CONFIG)):
            assert parsed.rejection is None, (spec.name, parsed.rejection)
            assert parsed.action is not None and parsed.action.name == spec.name
            for p in spec.params:
                got, want = parsed.action.args[p.name], args[p.name]
                if p.kind in ("point", "box"):
                    assert tuple(got) == tuple(float(v) for v in want)
                elif p.kind == "points":
                    assert [tuple(g) for g in got] == [tuple(float(v) for v in w) for w in want]
                elif p.kind == "answer":
                    assert got == want.strip()
                else:
                    assert got == want, (spec.name, p.name)


def test_an_optional_point_may_be_left_out():
    for parsed in _bound(BY_NAME["scroll"], {"direction": "down"}):
        assert parsed.action is not None and parsed.action.args == {"direction": "down"}


# Text a client may send: quotes, backslashes, newlines, tabs, unicode, things that look like the grammar.
_PIECE = st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(
    ["'", '"', "\\", "\n", "\t", "Action: ", "')", ", ", "Thought: "]
)
_TEXT = st.lists(_PIECE, max_size=20).map("".join)


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.floats(0, 1439, allow_nan=False), st.floats(0, 809, allow_nan=False))
def test_fill_content_and_point_survive_the_round_trip(content, x, y):
    for parsed in _bound(BY_NAME["fill"], {"start_box": [x, y], "content": content}):
        assert parsed.action is not None, parsed.rejection
        gx, gy = parsed.action.args["start_box"]
        assert abs(gx - x) <= 0.0005 and abs(gy - y) <= 0.0005
        # What the parser strips from any reply (chat-template tokens, trailing markup) is the
        # harness's normal cleaning, the same for a bench reply; plain text must come back whole.
        if "<" not in content and not content.rstrip().endswith(("`", ">")):
            assert parsed.action.args["content"] == content


def test_docs_describe_every_tool():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text()
    for tool in tool_list(catalog.SPECS, CONFIG):
        assert f"| `{tool['name']}` |" in doc, f"docs/mcp.md has no row for the tool {tool['name']}"
