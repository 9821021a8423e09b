"""The summarise role (models/routes.py) on a long task that compresses its history (the pages and
replies of test_compress.py): routed to a second model, that model alone gets the summary call and
its usage is counted apart; routed to the rule, no summary call is made at all."""

from __future__ import annotations

import json

import pytest

from tests.models.fake_llm import fake_llm, openai_ok
from tests.observation.test_compress import FINISH, PAGE, SUMMARY, TASK, step_reply
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.costs import role_tallies
from webfovea.observation.compress import REFRESH_NOTE, SUMMARY_SYSTEM
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_second_summary_model_gets_the_summary_call_and_counts_apart(tmp_path, session):
    script = [openai_ok(step_reply(i), 100, 10) for i in range(5)] + [openai_ok(FINISH)]
    with (
        serve_pages({"/": PAGE}) as site,
        fake_llm(script) as llm,
        fake_llm([openai_ok(SUMMARY, 900, 60)]) as slm,
    ):
        config = make_config(
            disable=["verifier", "ocr_check"],  # their checks would ask for another finished
            context_tokens=14_000,
            screenshot_window=1,
            summary_model="openai:summary-model",
            summary_base_url=slm.base_url,
        )
        task = Task(task_id="summary", task=TASK, website=site.url("/"))
        result = await run_task(
            task,
            tmp_path / "summary",
            model="openai:test-model",
            config=config,
            base_url=llm.base_url,
            session=session,
            capture=False,
            model_options={"max_attempts": 1},
        )
        main, summary = [r.body for r in llm.received], [r.body for r in slm.received]
    assert result.status == "finished" and result.answer == "5"
    assert [b["model"] for b in summary] == ["summary-model"]
    assert summary[0]["messages"][0]["content"] == SUMMARY_SYSTEM
    assert all(b["messages"][0]["content"] != SUMMARY_SYSTEM for b in main) and len(main) == 6
    assert "SUMMARY-MARK" in json.dumps(main[4])  # the task's model is shown the other model's summary
    assert result.usage.model_calls == 6 and result.summary_usage is not None
    assert (result.summary_usage.prompt_tokens, result.summary_usage.completion_tokens) == (900, 60)
    assert result.routes is not None and result.routes["summarise"] == {
        "model": "openai:summary-model",
        "via": "own",
    }
    roles = role_tallies(tmp_path / "summary")
    assert (roles["summarise"].steps, roles["summarise"].prompt) == (1, 900)


async def test_summarise_by_rule_makes_no_call(tmp_path, session):
    script = [openai_ok(step_reply(i)) for i in range(5)] + [openai_ok(FINISH)]
    with serve_pages({"/": PAGE}) as site, fake_llm(script) as llm:
        config = make_config(
            disable=["verifier", "ocr_check"],
            context_tokens=14_000,
            screenshot_window=1,
            summary_model="rule",
        )
        task = Task(task_id="rule", task=TASK, website=site.url("/"))
        result = await run_task(
            task,
            tmp_path / "rule",
            model="openai:test-model",
            config=config,
            base_url=llm.base_url,
            session=session,
            capture=False,
            model_options={"max_attempts": 1},
        )
        bodies = [r.body for r in llm.received]
    assert result.status == "finished" and len(bodies) == 6  # six steps, no summary call
    assert all(b["messages"][0]["content"] != SUMMARY_SYSTEM for b in bodies)
    assert REFRESH_NOTE in json.dumps(bodies[4])
    steps = [json.loads(line) for line in (tmp_path / "rule" / "trajectory.jsonl").read_text().splitlines()]
    event = steps[4]["compression"]
    assert event["status"] == "rule" and not event["model_called"] and event["error"] is None
    assert result.routes is not None and result.routes["summarise"] == {"model": None, "via": "rule"}
