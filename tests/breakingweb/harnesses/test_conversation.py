"""The text harness's input budget (seed 003, A.2.1): when the conversation would pass 26,000
tokens the oldest turns are dropped and replaced by a short fact summary; the system prompt and the
latest observation are always sent. Asserted on the messages the decision-maker is handed."""

from __future__ import annotations

from webfovea_breakingweb.harnesses.conversation import INPUT_BUDGET, SUMMARY_HEAD, Conversation, Message


def _tree(step: int) -> str:
    # An accessibility tree of a busy page: ~3,000 tokens by the estimate.
    return f"## url: http://app/step-{step}\n" + "\n".join(
        f"[a{step}x{i}] link 'item {i}'" for i in range(480)
    )


def test_oldest_turns_are_dropped_for_a_fact_summary_within_the_budget() -> None:
    convo = Conversation("SYSTEM PROMPT")
    sent_per_step = []
    for step in range(12):
        latest = Message("user", _tree(step))
        sent = convo.input(latest)
        sent_per_step.append(sent)
        convo.record(latest, f"click('a{step}x1')", f"click('a{step}x1') -> http://app/step-{step + 1}")
    first, last = sent_per_step[0], sent_per_step[-1]
    assert first.dropped_turns == 0 and len(first.messages) == 2
    # By the 12th step 11 turns of ~3,000 tokens would be ~36,000: the oldest went.
    assert last.dropped_turns > 0 and last.tokens <= INPUT_BUDGET
    texts = [m.text for m in last.messages]
    assert texts[0] == "SYSTEM PROMPT" and texts[-1] == _tree(11)  # always in scope
    assert not any("http://app/step-0\n" in t for t in texts[2:])  # the first observation is gone
    summary = texts[1]
    assert summary.startswith(SUMMARY_HEAD)
    # ... its facts kept: each dropped turn's action and where it led, one line each
    assert "click('a0x1') -> http://app/step-1" in summary
    assert summary.count("\n- ") == last.dropped_turns
    # the kept turns are the newest, in order, each observation followed by its action
    kept = texts[2:-1]
    assert kept[-1] == "click('a10x1')" and kept[-2] == _tree(10)


def test_a_conversation_under_the_budget_is_sent_whole() -> None:
    convo = Conversation("S")
    for step in range(3):
        convo.record(Message("user", f"obs {step}"), f"noop() {step}", f"fact {step}")
    sent = convo.input(Message("user", "now"))
    assert sent.dropped_turns == 0
    assert [m.text for m in sent.messages] == [
        "S",
        "obs 0",
        "noop() 0",
        "obs 1",
        "noop() 1",
        "obs 2",
        "noop() 2",
        "now",
    ]
