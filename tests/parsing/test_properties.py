"""Property tests: no text makes the parser raise, and stripping never eats the box tokens."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.parsing.specs import PAPER_SPECS
from webfovea.parsing import TEMPLATE_TOKEN_RE, clean_reply, parse_reply
from webfovea.types import Action, ParsedReply, Rejection

FRAGMENTS = [
    "Thought:", "Thought：", "Action:", "**Action:**", "Action：", "Observation:", "Reflection:", "\n", " ", "\t",
    "click(", "type(", "fill(", "finished(", "scroll(", "click_many(", "hotkey(", "goto(", "select(", "drag(",
    ")", "(", "[", "]", ",", "=", "'", '"', "'''", '"""', "\\", "\\n", "\\'", "`", "```", "```python\n",
    "start_box=", "end_box=", "content=", "direction=", "key=", "points=", "option=", "x=", "y=",
    "<|box_start|>", "<|box_end|>", "(100,200)", "[1,2,3,4]", "<point>5 6</point>", "<bbox>1 2 3 4</bbox>",
    "<|eot_id|>", "<|im_end|>", "<|im_start|>", "<|start_header_id|>", "<|end_header_id|>", "</s>", "[/INST]",
    "<end_of_turn>", "<br>", "</answer>", "<|", "|>", "ottawa", "北京", "🚌", "عدد", "é", "down", "ctrl+c",
    "1.5", "-3", "\u0000", "\r\n", "\u200d",
]  # fmt: skip

fragment_text = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=40).map("".join)
any_text = st.text(max_size=400) | fragment_text
flags = st.booleans()


def _check(reply: ParsedReply) -> None:
    assert isinstance(reply.cleaned, str) and isinstance(reply.thought, str)
    assert (reply.action is None) != (reply.rejection is None)
    if reply.action is not None:
        assert isinstance(reply.action, Action) and reply.action.name in PAPER_SPECS
    else:
        assert isinstance(reply.rejection, Rejection) and reply.rejection.reason


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=any_text, strip=flags, first=flags)
def test_parse_reply_never_raises(text: str, strip: bool, first: bool) -> None:
    _check(parse_reply(text, PAPER_SPECS, strip_tokens=strip, first_only=first))
    cleaned, tokens, truncated = clean_reply(text, strip_tokens=strip, first_only=first)
    assert isinstance(cleaned, str) and isinstance(tokens, list) and isinstance(truncated, bool)


@settings(max_examples=150, deadline=None)
@given(text=fragment_text)
def test_stripping_never_removes_box_tokens(text: str) -> None:
    """Box tokens survive stripping wherever cleaning keeps their text."""
    reply = parse_reply(text, PAPER_SPECS, strip_tokens=True, first_only=False)
    # With first_only off nothing is cut, so every box token the model wrote is still there.
    for token in ("<|box_start|>", "<|box_end|>"):
        assert reply.cleaned.count(token) == text.count(token)
    assert not any(t in ("<|box_start|>", "<|box_end|>") for t in reply.stripped_tokens)
    assert TEMPLATE_TOKEN_RE.search(reply.cleaned) is None


@settings(max_examples=100, deadline=None)
@given(
    x=st.integers(0, 1920),
    y=st.integers(0, 1080),
    junk=st.sampled_from(["<|eot_id|>", "<|im_end|>", "<br>", ""]),
)
def test_box_point_survives_contamination(x: int, y: int, junk: str) -> None:
    reply = parse_reply(
        f"Thought: t\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>'){junk}", PAPER_SPECS
    )
    assert reply.action is not None and reply.action.args["start_box"] == (x, y)
    assert f"<|box_start|>({x},{y})<|box_end|>" in reply.cleaned


@given(content=st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), max_size=60))
@settings(max_examples=150, deadline=None)
def test_type_content_round_trips(content: str) -> None:
    """Any content written with Python-style escapes reads back exactly (minus trailing markup)."""
    escaped = content.replace("\\", "\\\\").replace("'", "\\'")
    reply = parse_reply(f"Thought: t\nAction: type(content='{escaped}')", PAPER_SPECS, strip_tokens=False)
    assert reply.action is not None, reply.rejection
    assert reply.action.args["content"] == content


def test_pathological_inputs_stay_fast() -> None:
    """Long runs of quotes, spaces, parens or markup must not send a regex quadratic."""
    nasty = [
        "Action: type(content='" + "'" * 5000,
        "Action: click(" + " " * 20000 + "x",
        "Thought: " + "<br>" * 5000 + "x",
        "Action: finished(content='" + "a, b='" * 3000,
        "(" * 10000,
        "`" * 20000 + "x",
        "Action: type(content='" + "\\" * 10001,
        "\n" * 20000 + "Action:" + " " * 20000,
        "Action: type(content='" + "<br>" * 5000 + "x')",
        "Action: finished(content='" + "</b>" * 5000 + "x')",
        "Action: type(content='" + "' " * 5000 + "')",
        "Action: click_many(points=[" + "'(1,2)', " * 3000 + "])",
        "Thought: x\n" + "Action: wait()\n" * 3000,
    ]
    for text in nasty:
        start = time.perf_counter()
        _check(parse_reply(text, PAPER_SPECS))
        assert time.perf_counter() - start < 2.0, text[:40]
