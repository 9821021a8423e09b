"""The real agent under a failing model endpoint: a fake OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
from pathlib import Path

from tests.models.fake_llm import Answer, error, fake_llm, openai_ok
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.task import Task

PAGE = """<html><body style="margin:0"><button style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit?n=' + Date.now())">Go</button></body></html>"""
CLICK = "Thought: go\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')"
DONE = "Thought: done\nAction: finished(content='ok')"


def test_403_429_503_and_hang_then_answers_and_an_endpoint_that_never_answers(tmp_path: Path) -> None:
    script = [
        # task a: every transient failure once, then the real replies
        error(403, "forbidden for now"),
        error(429, "slow down", **{"Retry-After": "1"}),
        error(503, "busy"),
        Answer(hang_s=4.0, body=None),
        openai_ok(CLICK),
        openai_ok(DONE),
        # task b: the endpoint fails for good
        *[error(503, "down")] * 20,
    ]
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site, fake_llm(script) as llm:
        tasks = [
            Task(task_id="a", task="press go", website=site.url("/")),
            Task(task_id="b", task="press go", website=site.url("/")),
        ]
        outcome = run_tasks(
            tasks,
            tmp_path,
            RunOptions(
                model="openai:m",
                config=make_config(),
                workers=1,
                show_progress=False,
                model_options={
                    "base_url": llm.base_url,
                    "timeout_s": 2.0,
                    "budget_s": 20.0,
                    "max_attempts": 6,
                    "base_delay_s": 0.2,
                },
            ),
        )
        hits = [p for p in site.log if p.startswith("/hit")]
    assert outcome.complete
    a, b = outcome.results["a"], outcome.results["b"]
    assert a.status == "finished" and a.answer == "ok" and a.steps == 2
    assert len(hits) == 1  # the click happened once: a retried model call is not a retried step
    assert b.status == "model_error" and "503" in (b.error or "") and b.steps == 0
    for tid in ("a", "b"):
        result = json.loads((tmp_path / tid / "result.json").read_text())
        assert result["status"] == outcome.results[tid].status
        assert (tmp_path / tid / ".runner_starts").read_text().count("\n") == 1  # started once
