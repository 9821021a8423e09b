"""The oracle in structured mode, end to end through the agent loop: it names targets by the
refs it was given; odd ref spellings still work; invented refs are refused as stale, never
clicked, and the stale-reference budget stops the task."""

from __future__ import annotations

import json

import pytest

from webfovea.agent import run_task
from webfovea.envs.suite import load_builtin_suite
from webfovea.observation.sizing import harness_config

pytestmark = pytest.mark.asyncio(loop_scope="module")


def task(sites, tid):
    t = next(t for t in load_builtin_suite(sites) if t.task_id == tid)
    return t.model_copy(update={"session": None})  # no control plane in this test


def steps(folder):
    return [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]


async def test_odd_spellings_still_pass(sites, tmp_path):
    t = task(sites, "struct-seat-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured")
    r = await run_task(t, tmp_path, model="oracle:odd_ref_rate=1.0", config=config, capture=False)
    assert r.status == "finished" and r.answer == t.answer
    recs = steps(tmp_path)
    assert any("[ref=" in s["cleaned_reply"] or "ref=e" in s["cleaned_reply"] for s in recs)
    assert all(s["observation"] == "structured" and s["snapshot"] for s in recs)
    assert (tmp_path / recs[0]["snapshot"]).read_text().startswith("- ")
    clicked = [s["target"] for s in recs if s["target"]]
    assert clicked[0]["role"] == "button" and clicked[0]["locator"].startswith("get_by_role")


async def test_invented_refs_are_refused_until_the_budget_stops_the_task(sites, tmp_path):
    t = task(sites, "struct-seat-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured", stale_ref_budget=2)
    r = await run_task(t, tmp_path, model="oracle:invent_ref_rate=1.0", config=config, capture=False)
    assert r.status == "stale_refs"
    recs = steps(tmp_path)
    stale = [s for s in recs if s["stale_ref"]]
    assert len(stale) == 3 and all(s["outcome"] == "rejected" and s["executed_point"] is None for s in stale)
    assert "no longer on the page" in stale[0]["feedback"]
