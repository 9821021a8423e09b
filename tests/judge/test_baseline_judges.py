"""Autonomous Eval, AgentTrek Eval and WebVoyager's evaluator as published: each request is
built from a fixture run and compared piece by piece with its recipe (which screenshots, which
text), and a reply none of them can read is recorded as no verdict."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.judge import agenttrek_eval, autonomous_eval, webvoyager_eval
from webfovea.judge.client import Part
from webfovea.judge.records import read_judge_records
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.models.base import ModelReply


class Recorder:
    """A judge model in the test: answers `reply`, keeps every (system, parts) it is asked."""

    def __init__(self, reply: str = 'Thoughts: fine\nStatus: "success"') -> None:
        self.reply = reply
        self.asked: list[tuple[str, list[Part]]] = []

    async def ask(self, task_id: str, system: str, parts: list[Part]) -> ModelReply:
        self.asked.append((system, parts))
        return ModelReply(self.reply)


def _red(data: bytes) -> int:
    return Image.open(io.BytesIO(data)).getpixel((0, 0))[0]


def _run(tmp_path, steps: int = 3):
    """One task of ours; step i's screenshot has red value i (its marked copy is blue)."""
    run = tmp_path / "run"
    f = folders.ours(run / "t1", steps=steps)
    for i in range(steps):
        folders.png(f / f"step_{i:03d}.png", (i, 0, 0))
    return run


def _judge(run, method: str, reply: str = 'Thoughts: fine\nStatus: "success"', **kw):
    model = Recorder(reply)
    summary = judge_run(run, JudgeOptions(method=method, judge="scripted", **kw), model=model)
    return summary, model.asked, read_judge_records(run / "judge")["t1"]


ACTIONS = ["step 1: click(start_box=[10, 20]) -> executed", "step 2: click(start_box=[10, 21]) -> executed"]


def test_autonomous_eval_sends_intent_numbered_actions_and_the_last_screenshot(tmp_path) -> None:
    summary, asked, record = _judge(_run(tmp_path), "autonomous-eval", protocol="III")
    assert summary.passed == 1 and len(asked) == 1
    system, parts = asked[0]
    assert system == autonomous_eval.SYSTEM
    assert [k for k, _ in parts] == ["text", "image"]
    assert parts[0][1] == (
        "User Intent: Show CPI for Viet Nam\n\nAction History:\n"
        f"1: {ACTIONS[0]}\n2: {ACTIONS[1]}\n\nThe image is the last snapshot of the web page."
    )
    assert _red(parts[1][1]) == 2  # the last step's screenshot as sent, not a marked copy
    # Its code is handed the response but never sends it; no thoughts, requests or URLs either.
    for hidden in ("3.4", "I am sure", "api/table", "example.co.uk"):
        assert hidden not in parts[0][1]
    assert record.method == "autonomous-eval" and record.verdict is True and record.reasoning == "fine"


def test_agenttrek_eval_pairs_each_action_with_the_agents_thought(tmp_path) -> None:
    summary, asked, record = _judge(
        _run(tmp_path), "agenttrek-eval", reply="Thoughts: looped\n**Status:** failure"
    )
    assert summary.failed == 1 and len(asked) == 1
    system, parts = asked[0]
    assert system == agenttrek_eval.SYSTEM
    assert [k for k, _ in parts] == ["text", "image"] and _red(parts[1][1]) == 2
    assert parts[0][1] == (
        "The goal of the task: Show CPI for Viet Nam\n\nTrajectory:\n"
        f"Thought 1: I am sure of step 0 and more\nAction 1: {ACTIONS[0]}\n\n"
        f"Thought 2: I am sure of step 1 and more\nAction 2: {ACTIONS[1]}\n\n"
        "The image is the last snapshot of the web page."
    )
    # The final answer's step is no action, so its thought is not paired either; no answer.
    assert "step 2 and more" not in parts[0][1] and "3.4" not in parts[0][1]
    assert record.verdict is False and record.reasoning == "looped"


def test_agenttrek_eval_reads_thoughts_of_a_webretriever_folder_the_others_never_see(tmp_path) -> None:
    run = tmp_path / "run"
    folders.webretriever(run / "t1", steps=4)
    _, asked, _ = _judge(run, "agenttrek-eval")
    text = asked[0][1][0][1]
    assert text.splitlines()[3].startswith("Thought 1: secret reasoning") and "Thought 2: \nAction 2:" in text
    _, asked, _ = _judge(run, "autonomous-eval", cache=False)
    assert "secret reasoning" not in asked[0][1][0][1] and "hmm" not in asked[0][1][0][1]


def test_webvoyager_sends_the_answer_and_the_last_15_screenshots(tmp_path) -> None:
    run = _run(tmp_path, steps=20)
    summary, asked, record = _judge(run, "webvoyager", reply="The table matches.\nVerdict: SUCCESS")
    assert summary.passed == 1 and len(asked) == 1
    system, parts = asked[0]
    assert system == webvoyager_eval.SYSTEM
    assert parts[0] == (
        "text",
        "TASK: Show CPI for Viet Nam\nResult Response: 3.4\n15 screenshots at the end: ",
    )
    assert [_red(v) for k, v in parts[1:-1]] == list(range(5, 20))  # the last 15, in step order
    assert all(k == "image" for k, _ in parts[1:-1]) and parts[-1] == ("text", "Your verdict:\n")
    assert not any("click(" in v or "I am sure" in v for k, v in parts if k == "text")
    assert record.verdict is True


def test_webvoyager_says_k_even_with_fewer_screenshots_and_fails_a_run_without_answer(tmp_path) -> None:
    run = _run(tmp_path, steps=3)
    _, asked, record = _judge(run, "webvoyager", reply="NOT SUCCESS: the filter is missing")
    assert asked[0][1][0][1].endswith("15 screenshots at the end: ") and len(asked[0][1]) == 2 + 3
    assert record.verdict is False
    result = run / "t1" / "result.json"
    result.write_text(json.dumps({**json.loads(result.read_text()), "answer": None}))
    _, asked, record = _judge(run, "webvoyager")  # the answer is part of the cache key
    assert asked == [] and record.verdict is False and "no answer" in (record.reasoning or "")


@pytest.mark.parametrize(
    ("method", "reply"),
    [
        ("autonomous-eval", "Thoughts: hard to say\nStatus: partial"),
        ("agenttrek-eval", "The agent did well."),
        ("webvoyager", "I cannot tell from these screenshots."),
    ],
)
def test_an_unreadable_reply_is_recorded_unparsed_never_as_a_verdict(tmp_path, method, reply) -> None:
    summary, asked, record = _judge(_run(tmp_path), method, reply=reply)
    assert len(asked) == 1  # asked once, as their code asks
    assert record.verdict is None and record.unparsed and (record.error or "").startswith("unparsed reply:")
    assert summary.no_verdict == 1 and summary.unparsed == 1 and summary.judged == 0
    assert record.calls[0]["raw_reply"] == reply
    assert not list((tmp_path / "run" / "judge" / ".cache").glob("*.json"))  # asked again next time


def test_the_three_over_an_openai_compatible_endpoint(tmp_path) -> None:
    run = _run(tmp_path, steps=2)
    script = [
        openai_ok('Thoughts: ok\nStatus: "success"'),
        openai_ok("Status: failure"),
        openai_ok("SUCCESS"),
    ]
    with fake_llm(script) as srv:
        verdicts = []
        for method in ("autonomous-eval", "agenttrek-eval", "webvoyager"):
            judge_run(run, JudgeOptions(method=method, judge="openai:judge-1", base_url=srv.base_url))
            verdicts.append(read_judge_records(run / "judge")["t1"].verdict)
        bodies = [r.body for r in srv.received]
    assert verdicts == [True, False, True]
    assert [b["messages"][0]["content"] for b in bodies] == [
        autonomous_eval.SYSTEM,
        agenttrek_eval.SYSTEM,
        webvoyager_eval.SYSTEM,
    ]
    images = [sum(p["type"] == "image_url" for p in b["messages"][1]["content"]) for b in bodies]
    assert images == [1, 1, 2]
