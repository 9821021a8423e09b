"""Machine-readable outcomes: executed, no_effect, failed (with .error), rejected; the same
field in trajectory.jsonl."""

from __future__ import annotations

import json

import pytest

from tests.feedback.conftest import act, open_lab
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")

CUSTOM = """<html><body style="margin:0;font:16px sans-serif">
<div id=dd role=combobox style="position:absolute;left:200px;top:200px;width:240px;height:36px;border:1px solid">Choose a country</div>
</body></html>"""


async def test_each_outcome(session, sites):
    with serve_pages({"/": CUSTOM}) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config())
        await h.goto(srv.url("/"))
        res = await act(h, "select", "#dd", option="Kenya")
        assert res.outcome == "failed" and res.error and "no dropdown" in res.error.lower()
        res = await act(h, "hotkey", key="ctrl l")
        assert res.outcome == "rejected" and res.error
        await h.observe()
        res = await h.step("Thought: t\nAction: fly(to='moon')")
        assert res.outcome == "rejected"
    h = await open_lab(session, sites, "/lab/tabs")
    assert (await act(h, "click", "#tab-delta")).outcome == "executed"
    assert (await act(h, "click", "#tab-delta")).outcome == "no_effect"


async def test_trajectory_records_the_outcome(session, sites, tmp_path):
    task = next(t for t in load_builtin_suite(sites) if t.task_id == "lab-tabs-01")
    result = await run_task(
        task,
        tmp_path / task.task_id,
        model="oracle",
        config=make_config(),
        session=session,
        capture=False,
        model_options={"contaminate_rate": 0.0, "continuation_rate": 0.0},
    )
    assert result.answer == task.answer
    rows = [
        json.loads(line) for line in (tmp_path / task.task_id / "trajectory.jsonl").read_text().splitlines()
    ]
    assert rows[0]["outcome"] == "executed" and all("outcome" in r for r in rows)
