"""The oracle in structured mode, end to end through the agent loop: it names targets by the
refs it was given; odd ref spellings still work; invented refs are refused as stale, never
clicked, and the stale-reference budget stops the task."""

from __future__ import annotations

import json

import pytest

from webfovea.agent import run_task
from webfovea.observation.sizing import harness_config
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")


def task(sites, tid):
    t = next(t for t in load_builtin_suite(sites) if t.task_id == tid)
    return t.model_copy(update={"session": None})  # no control plane in this test


def steps(folder):
    return [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]


async def test_odd_spellings_still_pass(session, sites, tmp_path):
    t = task(sites, "struct-seat-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured")
    r = await run_task(
        t, tmp_path, session=session, model="oracle:odd_ref_rate=1.0", config=config, capture=False
    )
    assert r.status == "finished" and r.answer == t.answer
    recs = steps(tmp_path)
    assert any("[ref=" in s["cleaned_reply"] or "ref=e" in s["cleaned_reply"] for s in recs)
    assert all(s["observation"] == "structured" and s["snapshot"] for s in recs)
    assert (tmp_path / recs[0]["snapshot"]).read_text().startswith("- ")
    clicked = [s["target"] for s in recs if s["target"]]
    assert clicked[0]["role"] == "button" and clicked[0]["locator"].startswith("get_by_role")


async def test_invented_refs_are_refused_until_the_budget_stops_the_task(session, sites, tmp_path):
    t = task(sites, "struct-seat-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured", stale_ref_budget=2)
    r = await run_task(
        t, tmp_path, session=session, model="oracle:invent_ref_rate=1.0", config=config, capture=False
    )
    assert r.status == "stale_refs"
    recs = steps(tmp_path)
    stale = [s for s in recs if s["stale_ref"]]
    assert len(stale) == 3 and all(s["outcome"] == "rejected" and s["executed_point"] is None for s in stale)
    assert "no longer on the page" in stale[0]["feedback"]


async def test_odd_spellings_are_logged_in_result_and_run_json(session, sites, tmp_path):
    from webfovea.config import make_config
    from webfovea.record import new_run_info, read_run_info, write_model_quirks, write_run_info

    t = task(sites, "struct-seat-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured")
    write_run_info(tmp_path, new_run_info(model="oracle:odd_ref_rate=1.0", config=make_config("webfovea")))
    r = await run_task(
        t,
        tmp_path / t.task_id,
        session=session,
        model="oracle:odd_ref_rate=1.0",
        config=config,
        capture=False,
    )
    assert r.status == "finished" and r.model_quirks and r.model_quirks[0]["quirk"] == "odd_ref"
    quirks = write_model_quirks(tmp_path, [t.task_id, "never-ran"])
    info = read_run_info(tmp_path)
    assert info.model_quirks == quirks and quirks["counts"]["odd_ref"] == len(r.model_quirks)
    first = quirks["log"][0]
    assert (
        first["task_id"] == t.task_id and first["step"] == r.model_quirks[0]["call"] and "spelling" in first
    )


async def test_closed_shadow_widget_is_located_then_clicked_at_the_point_locate_returned(
    session, sites, tmp_path
):
    t = task(sites, "struct-shadow-closed-01")
    config = harness_config("webfovea", None, model="oracle", observation="structured")
    r = await run_task(t, tmp_path, session=session, model="oracle", config=config, capture=False)
    assert r.status == "finished" and r.answer == t.answer
    recs = steps(tmp_path)
    names = [s["action"]["name"] for s in recs]
    assert names[:2] == ["locate", "click"] and "look" not in names
    assert recs[0]["vision"][0]["purpose"] == "locate" and not recs[0]["vision"][0]["separate"]
    assert recs[0]["vision"][0]["raw_reply"].startswith("Box: (")
    said = recs[0]["feedback"]
    point = said[said.index("is at (") + 7 : said.index(")", said.index("is at ("))]
    assert f"({point})" in recs[1]["cleaned_reply"].replace(" ", "")  # acted on the point it was given
    assert r.usage.model_calls == len(recs) + 1  # the locate call is the task model's own
