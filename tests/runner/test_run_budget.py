"""A run's spending cap: `bench --run-max-tokens` (run_bench, which the command calls) stops
starting tasks once the tasks' recorded tokens reach it, says so to its reporter (the terminal)
and in summary.json and run.json; a money budget without prices is refused by `bench` and `run`
before any browser starts. Real worker processes and Chromium, a loopback OpenAI-compatible
model that bills exact tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.models.fake_llm import Answer, fake_llm
from tests.support.servers import serve_pages
from webfovea.app import BenchOptions, Reporter, run_bench
from webfovea.cli.main import app

PAGE = "<html><body><p>Nothing to do here.</p></body></html>"
DONE = "Thought: done\nAction: finished(content='ok')"
# A Chat Completions reply billing 11 + 7 tokens, written out: building it from the SDK's classes
# (openai_ok) and checking requests against its request types cost many seconds of CPU here,
# and both are checked elsewhere (tests/models).
REPLY = Answer(
    body={
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": DONE}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }
)


class Said(Reporter):
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warn(self, label: str, text: str) -> None:
        self.warnings.append(f"{label}: {text}")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")  # the client is built before any browser


def test_the_run_budget_stops_starting_tasks_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    # Each task: one call of 11 + 7 tokens. 18 after the first task (< 30), 36 after the second.
    with (
        serve_pages({"/": PAGE}) as site,
        fake_llm([], default=REPLY, validate=False) as llm,
    ):
        tasks = tmp_path / "tasks.json"
        tasks.write_text(
            json.dumps([{"task_id": f"t{i}", "task": "Say ok", "website": site.url("/")} for i in (1, 2, 3)])
        )
        said = Said()
        result = run_bench(
            BenchOptions(
                str(tasks), model="openai:m", base_url=llm.base_url, disable=["verifier"],
                max_tokens=1000, run_max_tokens=30, out_dir=out,
            ),
            said,
        )  # fmt: skip
        calls = llm.attempts
    ran = sorted(p.parent.name for p in out.glob("t*/result.json"))
    assert ran == ["t1", "t2"] and calls == 2  # the third task never started
    assert not result.summary.complete  # `webfovea bench` exits 3, as for a partial run
    live = " ".join(capsys.readouterr().err.split())  # the run's progress lines, as it happens
    assert "run token budget of 30 reached: 36 tokens spent: no further task starts" in live
    assert said.warnings[0].startswith(
        "run budget: run token budget of 30 reached: 36 tokens spent; 1 task(s) not started"
    )
    summary = json.loads((out / "summary.partial.json").read_text())
    assert summary["budget"] == {
        "max_tokens": 30,
        "spent": {"tokens": 36},
        "stopped": "run token budget of 30 reached: 36 tokens spent",
        "not_started": 1,
    }
    assert summary["missing"] == 1 and summary["statuses"]["finished"] == 2
    run = json.loads((out / "run.json").read_text())
    assert run["budget"] == summary["budget"] and run["config"]["max_tokens"] == 1000  # the task's own cap
    events = [json.loads(line)["event"] for line in (out / "runner.log.jsonl").read_text().splitlines()]
    assert events.count("run_budget_reached") == 1


def test_a_money_budget_without_prices_is_refused_up_front(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([{"task_id": "a", "task": "x", "website": "http://127.0.0.1:9/"}]))
    for args in (
        ("bench", str(tasks), "--model", "openai:m", "--run-max-cost", "0.5"),
        ("bench", str(tasks), "--model", "openai:m", "--max-cost", "0.5"),
        ("run", "Find it", "--url", "http://127.0.0.1:9/", "--model", "openai:m", "--max-cost", "0.5"),
    ):
        res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
        assert res.exit_code == 2, (args, res.output[-1000:])
        assert "no known price" in " ".join(res.output.split()), args
        assert not (tmp_path / "out").exists()  # refused before any browser or folder
