"""WebJudge and NavEval as their authors publish them, on small run folders: each stage runs with
the inputs its public code gives it (WebJudge: no request evidence anywhere, every screenshot
scored in a call of its own; NavEval: the filter stage, then one call without the actions)."""

from __future__ import annotations

import io
import json

from PIL import Image

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.judge.client import Part
from webfovea.judge.prompt import WEBJUDGE_IMAGE, WEBJUDGE_KEYPOINTS
from webfovea.judge.records import read_judge_records
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.models.base import ModelReply

STEPS = 35  # more than the 30 our own variant scores: WebJudge scores every one


class ScriptedJudge:
    """A judge model in the test: key points, a score per screenshot read from the image itself
    (its red value is its step), the outcome; it records every request it is given."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[Part]]] = []

    async def ask(self, task_id: str, system: str, parts: list[Part]) -> ModelReply:
        self.asked.append((system, parts))
        if system == WEBJUDGE_KEYPOINTS:
            return ModelReply("**Key Points**:\n1. Viet Nam\n2. CPI")
        if system == WEBJUDGE_IMAGE:
            (data,) = [v for k, v in parts if k == "image"]
            step = Image.open(io.BytesIO(data)).getpixel((0, 0))[0]
            return ModelReply(f"Reasoning: step {step}\nScore: {4 if step % 10 == 0 else 2}")
        return ModelReply('Thoughts: the table shows Viet Nam\nStatus: "success"')


def _run(tmp_path, steps: int = STEPS):
    run = tmp_path / "run"
    f = folders.ours(run / "t1", steps=steps)
    for i in range(steps):
        folders.png(f / f"step_{i:03d}.png", (i, 0, 0))
    return run


def _texts(parts: list[Part]) -> str:
    return "\n".join(v for k, v in parts if k == "text")


def test_webjudge_scores_every_screenshot_and_never_sees_requests(tmp_path) -> None:
    run = _run(tmp_path)
    judge = ScriptedJudge()
    summary = judge_run(run, JudgeOptions(method="webjudge", judge="scripted"), model=judge)
    assert summary.passed == 1
    images = [p for s, p in judge.asked if s == WEBJUDGE_IMAGE]
    assert len(judge.asked) == 1 + STEPS + 1 and len(images) == STEPS  # key points, each shot, outcome
    for _system, parts in judge.asked:  # no stage is given the requests or the URLs
        text = _texts(parts)
        assert "api/table" not in text and "network requests" not in text and "url trajectory" not in text
    assert _texts(judge.asked[0][1]) == "Task: Show CPI for Viet Nam"  # key points: the task alone
    assert all(sum(k == "image" for k, _ in p) == 1 and "1. Viet Nam" in _texts(p) for p in images)
    outcome = judge.asked[-1][1]
    kept = [Image.open(io.BytesIO(v)).getpixel((0, 0))[0] for k, v in outcome if k == "image"]
    assert kept == [0, 10, 20, 30]  # scored 3 or more, in step order: the early ones too
    text = _texts(outcome)
    assert "Action history:\n1. step 1: click(" in text and "step 0" in text and "I am sure" not in text
    record = read_judge_records(run / "judge")["t1"]
    scores = {c["stage"]: c["score"] for c in record.calls if c["stage"].startswith("image:")}
    assert len(scores) == STEPS and scores["image:step_010.png"] == 4 and scores["image:step_011.png"] == 2
    assert record.method == "webjudge" and record.reasoning == "the table shows Viet Nam"


def test_webjudge_over_http_and_an_unreadable_score_counts_zero(tmp_path) -> None:
    run = _run(tmp_path, steps=4)
    script = [
        openai_ok("Key Points:\n1. CPI"),
        *[openai_ok("no score here")] * 4,
        openai_ok("Status: failure"),
    ]
    with fake_llm(script) as srv:
        summary = judge_run(
            run, JudgeOptions(method="webjudge", judge="openai:j", base_url=srv.base_url, workers=1)
        )
        bodies = [r.body for r in srv.received]
    assert summary.failed == 1 and len(bodies) == 6
    outcome = bodies[-1]["messages"][-1]["content"]
    assert not any(p.get("type") == "image_url" for p in outcome)  # nothing scored 3+
    assert all("api/table" not in json.dumps(b) for b in bodies)
    record = read_judge_records(run / "judge")["t1"]
    assert [c.get("score") for c in record.calls[1:-1]] == [0, 0, 0, 0]


def test_naveval_as_published_one_call_without_actions(tmp_path) -> None:
    run = _run(tmp_path, steps=3)
    result = run / "t1" / "result.json"
    data = json.loads(result.read_text())
    result.write_text(json.dumps({**data, "task": data["task"] + "\n### key points\n1. secret"}))
    judge = ScriptedJudge()
    # --filter webfovea is ignored: the method reads the capture through NavEval's own filter.
    summary = judge_run(
        run, JudgeOptions(method="naveval", judge="scripted", filter="webfovea", protocol="III"), model=judge
    )
    assert len(judge.asked) == 1 and summary.n == 1
    text = _texts(judge.asked[0][1])
    assert text.startswith("- task: Show CPI for Viet Nam\n- url trajectory: [")
    assert "api.example.co.uk/stats/api/table" in text and "- network requests: [{" in text
    assert "executed actions" not in text and "click(" not in text and "secret" not in text
    assert "agent answer" not in text and "start url" not in text  # its code asks no answer question
    assert sum(k == "image" for k, _ in judge.asked[0][1]) == 1
    record = read_judge_records(run / "judge")["t1"]
    assert record.filter == "naveval" and record.method == "naveval"


def test_a_replayed_webjudge_gives_each_screenshot_its_recorded_score(tmp_path) -> None:
    """The screenshot calls run concurrently; their records are in step order, and a replay
    answers each call the reply recorded for it."""
    import shutil

    run = _run(tmp_path, steps=12)  # more than the 8 calls in flight at once
    judge_run(run, JudgeOptions(method="webjudge", judge="scripted"), model=ScriptedJudge())
    recorded = read_judge_records(run / "judge")["t1"]
    copy = tmp_path / "copy"
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("judge"))
    judge_run(copy, JudgeOptions(method="webjudge", judge=f"replay:{run}", cache=False))
    replayed = read_judge_records(copy / "judge")["t1"]
    assert [c["stage"] for c in recorded.calls][1:4] == [
        "image:step_000.png",
        "image:step_001.png",
        "image:step_002.png",
    ]
    assert [(c["stage"], c.get("score")) for c in replayed.calls] == [
        (c["stage"], c.get("score")) for c in recorded.calls
    ]
    assert replayed.verdict is True
