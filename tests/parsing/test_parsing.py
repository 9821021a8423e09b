"""The parser's contracts that the paper measured: contamination, continuations, Enter, rejections."""

from __future__ import annotations

import pytest

from tests.parsing.specs import PAPER_SPECS, REFERENCE_SPECS
from webfovea.parsing import (
    DEFAULT_FORBIDDEN,
    TEMPLATE_TOKEN_RE,
    TEMPLATE_TOKENS,
    clean_reply,
    expected_form,
    parse_reply,
)
from webfovea.types import ParamSpec

CONTAMINATED = "Thought: filter the table by city\nAction: type(content='ottawa<|eot_id|>')<|eot_id|>"
CONTINUATION = (
    "Thought: open the CPI table\nAction: click(start_box='<|box_start|>(400,300)<|box_end|>')\n"
    "Observation: The table shows June 2022: 9.1%.\n"
    "Thought: I can see the value.\nAction: finished(content='9.1%')"
)


@pytest.mark.parametrize(
    "token", ["<|eot_id|>", "<|end_of_turn|>", "<|im_end|>", "<|endoftext|>", "<end_of_turn>"]
)
def test_contaminated_type_never_types_the_token_when_stripping(token: str) -> None:
    reply = parse_reply(f"Thought: t\nAction: type(content='ottawa{token}')", PAPER_SPECS)
    assert reply.action is not None
    assert reply.action.args["content"] == "ottawa"
    assert token not in reply.cleaned and token not in reply.action.raw
    assert reply.stripped_tokens == [token]


def test_contaminated_type_keeps_the_token_in_the_reference_baseline() -> None:
    reply = parse_reply(CONTAMINATED, REFERENCE_SPECS, strip_tokens=False, first_only=False)
    assert reply.action is not None
    assert reply.action.args["content"] == "ottawa<|eot_id|>"
    # The baseline also fed the token back through history, where the model copied it again.
    assert reply.cleaned == CONTAMINATED
    assert reply.stripped_tokens == []


def test_contamination_is_removed_from_history_too() -> None:
    cleaned, tokens, truncated = clean_reply(CONTAMINATED)
    assert cleaned == "Thought: filter the table by city\nAction: type(content='ottawa')"
    assert tokens == ["<|eot_id|>", "<|eot_id|>"]
    assert truncated is False


def test_invented_continuation_executes_only_its_first_action() -> None:
    reply = parse_reply(CONTINUATION, PAPER_SPECS)
    assert reply.action is not None
    assert reply.action.name == "click" and reply.action.args == {"start_box": (400.0, 300.0)}
    assert reply.truncated is True
    assert reply.thought == "open the CPI table"
    assert "Observation" not in reply.cleaned and "finished" not in reply.cleaned


def test_invented_continuation_submits_the_fake_answer_without_first_only() -> None:
    reply = parse_reply(CONTINUATION, PAPER_SPECS, first_only=False)
    assert reply.action is not None
    assert reply.action.name == "finished" and reply.action.args == {"content": "9.1%"}
    assert reply.truncated is False
    assert reply.cleaned == CONTINUATION


def test_trailing_backslash_n_is_enter_like_a_real_newline() -> None:
    escaped = parse_reply("Thought: search\nAction: type(content='cpi 2022\\n')", PAPER_SPECS)
    real = parse_reply("Thought: search\nAction: type(content='cpi 2022\n')", PAPER_SPECS)
    assert escaped.action is not None and real.action is not None
    assert escaped.action.args["content"] == real.action.args["content"] == "cpi 2022\n"
    fill = parse_reply("Action: fill(start_box='(1,2)', content='Ottawa\\n')", PAPER_SPECS)
    assert fill.action is not None and fill.action.args["content"] == "Ottawa\n"


def test_rejections_explain_and_keep_the_parsed_action() -> None:
    goto = parse_reply("Thought: faster\nAction: goto(url='https://data.example/cpi.csv')", PAPER_SPECS)
    assert goto.action is None and goto.rejection is not None
    assert "reach pages through the site's own links" in goto.rejection.reason
    assert goto.rejection.action is not None and goto.rejection.action.name == "goto"
    assert goto.rejection.action.args == {"url": "https://data.example/cpi.csv"}

    missing = parse_reply("Action: fill(start_box='(10,20)')", PAPER_SPECS)
    assert missing.rejection is not None
    assert "missing required argument content" in missing.rejection.reason
    assert "fill(start_box='<|box_start|>(x1,y1)<|box_end|>', content='...')" in missing.rejection.reason
    assert missing.rejection.action is not None and missing.rejection.action.args == {
        "start_box": (10.0, 20.0)
    }

    unknown = parse_reply("Action: teleport(start_box='(1,2)')", REFERENCE_SPECS)
    assert unknown.rejection is not None
    assert (
        "Available actions: click, left_double, right_single, drag, scroll, wait, type, hotkey, finished"
        in (unknown.rejection.reason)
    )

    nothing = parse_reply("I think the answer is 42.", PAPER_SPECS)
    assert nothing.rejection is not None and nothing.rejection.reason.startswith(
        "Could not find an Action: line"
    )
    assert "Action: click(start_box=" in nothing.rejection.reason  # the one-line grammar hint
    assert "\n" not in nothing.rejection.reason


def test_caller_forbidden_replaces_the_default() -> None:
    own = {"hover": "hover is switched off in this run."}
    reply = parse_reply("Action: hover(start_box='(1,2)')", PAPER_SPECS, forbidden=own)
    assert reply.rejection is not None and "hover is switched off" in reply.rejection.reason
    # With an empty table goto is merely unknown (it is not offered).
    reply = parse_reply("Action: goto(url='x')", PAPER_SPECS, forbidden={})
    assert reply.rejection is not None and "Unknown action `goto`" in reply.rejection.reason


def test_default_forbidden_covers_navigation_script_and_http() -> None:
    for name in ("goto", "open_url", "navigate", "visit", "execute_javascript", "eval", "fetch", "http_get"):
        assert name in DEFAULT_FORBIDDEN and DEFAULT_FORBIDDEN[name].endswith(".")
    assert not set(DEFAULT_FORBIDDEN) & set(PAPER_SPECS)


def test_token_table_matches_tokens_but_never_box_tokens() -> None:
    for token in ("<|eot_id|>", "<|end_of_turn|>", "<|im_end|>", "<|endoftext|>", "<|im_start|>", "<end_of_turn>",
                  "</s>", "[/INST]", "<|start_header_id|>user<|end_header_id|>", "<|quad_start|>"):  # fmt: skip
        assert TEMPLATE_TOKEN_RE.fullmatch(token), token
    assert TEMPLATE_TOKEN_RE.search("<|box_start|>(1,2)<|box_end|>") is None
    assert len(TEMPLATE_TOKENS) >= 8 and all(family for _, family in TEMPLATE_TOKENS)


def test_thought_and_raw_are_cleaned() -> None:
    reply = parse_reply(
        "Thought: look at the chart<|eot_id|><br>\nAction: hover(start_box='(5,6)')<br>", PAPER_SPECS
    )
    assert reply.thought == "look at the chart"
    assert reply.action is not None and reply.action.raw == "hover(start_box='(5,6)')"
    assert reply.cleaned == "Thought: look at the chart\nAction: hover(start_box='(5,6)')"
    assert reply.raw.endswith("<br>")  # the original is kept untouched for the record


def test_expected_form_marks_optional_arguments() -> None:
    assert expected_form("scroll", PAPER_SPECS["scroll"]) == (
        "scroll([start_box='<|box_start|>(x1,y1)<|box_end|>'], direction='down')"
    )
    assert expected_form("custom", [ParamSpec("key", "key")]) == "custom(key='ctrl c')"
