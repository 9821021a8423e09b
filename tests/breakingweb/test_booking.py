"""The tour booking, a reservation in steps (search → the day's departures → guest details →
review → confirm): its generator is deterministic and covers the steps' templates; the API
reviews without writing and books seats only on the confirm; the oracle passes the tier
sample (sampling.py) in Chromium, judged by the backend state and the answer."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.breakingweb.sampling import tier_sample
from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_generator_is_deterministic_and_multi_step() -> None:
    a = [t.model_dump() for t in APPS["booking"].tasks(0)]  # type: ignore[misc]
    assert a == [t.model_dump() for t in APPS["booking"].tasks(0)]  # type: ignore[misc]
    assert a != [t.model_dump() for t in APPS["booking"].tasks(1)]  # type: ignore[misc]
    tasks = [t for t in stateful_tasks(0).values() if t.app == "booking"]
    assert {t.targets["template"] for t in tasks} == {"reserve", "earliest", "cancel", "seats", "price"}
    reserve = next(t for t in tasks if t.targets["template"] == "reserve")
    # search (5 steps) → pick → contact, email → review → confirm, then the answer
    assert [s["op"] for s in reserve.plan] == [
        "click",
        "select",
        "fill",
        "fill",
        "click",
        "click",
        "fill",
        "fill",
        "click",
        "click",
        "answer",
    ]
    assert reserve.targets["submit"] == "#g-confirm" and reserve.targets["tier"] == "medium"


async def test_review_writes_nothing_and_the_confirm_books_the_seats(
    sites: SitesHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = next(t for t in stateful_tasks(0).values() if t.targets.get("template") == "reserve")
    dep = task.obligations[0]["fields"]["departure"]
    people = task.obligations[0]["fields"]["people"]
    body = {"departure": dep, "people": people, "contact": "Mira Holm", "email": "mira@example.org"}
    with sites.control() as control:
        made = control.create(task.task_id, sites.seed, None)
    async with httpx.AsyncClient(base_url=sites.main_url, cookies={"wf_session": made["session_id"]}) as c:
        assert (await c.post("/api/booking/reservations/review", json=body)).json()["ok"]
        assert (
            await c.post("/api/booking/reservations/review", json={**body, "email": "x"})
        ).status_code == 422
        with sites.control() as control:
            assert control.diff(made["session_id"])["diff"] == []
        assert (await c.post("/api/booking/reservations", json=body)).json()["id"] == "B-0004"
    with sites.control() as control:
        changed = {
            (d["entity"], d["op"])
            for d in control.diff(made["session_id"])["diff"]
            if d["entity"] != "_settings"
        }
    assert changed == {("reservations", "create"), ("departures", "update")}


async def test_the_tier_sample_passes_with_the_oracle(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    suite = {t.task_id: t for t in load_breakingweb_suite(sites, seed=0)}
    for tid in tier_sample("booking"):
        task = suite[tid]
        extra = task.model_extra or {}
        result = await run_task(
            task, tmp_path / tid, model="oracle", config=HarnessConfig(max_steps=40), session=session
        )
        with sites.control() as control:
            diff = control.diff(result.session_id)
            requests = control.requests(result.session_id)
        state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
        assert state.passed, (tid, state.obligations_met, state.invariants_broken)
        if not task.state_changing:
            assert score_answer(result.answer, task.answer).passed, (tid, result.answer, task.answer)
