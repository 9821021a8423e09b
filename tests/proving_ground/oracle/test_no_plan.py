"""The oracle on a task it has no plan for says so: the task ends as a model error naming what
to do, instead of "finishing" with an empty answer that reads like a real attempt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = "<!doctype html><title>Prices</title><p>Price: 42 EUR</p>"


async def test_a_task_without_a_plan_ends_with_a_clear_model_error(session: BrowserSession, tmp_path: Path):
    with serve_pages({"/": PAGE}) as srv:
        task = Task(task_id="no-plan", task="What is the price?", website=srv.url("/"))
        result = await run_task(task, tmp_path / "t", model="oracle", config=make_config(), session=session)
    assert result.status == "model_error", (result.status, result.answer)
    assert result.answer is None
    assert "no plan for task 'no-plan'" in (result.error or "")
    assert "script:FILE" in (result.error or "")
    recorded = json.loads((tmp_path / "t" / "result.json").read_text())
    assert recorded["status"] == "model_error" and "no plan" in recorded["error"]
