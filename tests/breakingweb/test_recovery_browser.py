"""Pairs that used to fail under the default oracle, now recovered within the design rules'
bound (the clean plan's actions + 9, + 12 waits for patience families):

- the calendar's day and week counts under 429 and session expiry: the first matching call is
  the page's own load (the month view) or an early view (the week tab), not the submit step,
  so the recovery is a handler that acts where the failure shows (oracle/handlers.py);
- a create under contradictory_update: the stale list right after the submit does not make
  the oracle submit twice (one record created);
- the shop's order total under transient_5xx: the retry of the order link reaches the server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAIRS = [
    ("calendar-day-count-01", "rate_limit_429"),
    ("calendar-day-count-01", "session_expiry"),
    ("calendar-week-count-01", "session_expiry"),
    ("calendar-create-01", "contradictory_update"),
    ("shop-ordertotal-01", "transient_5xx"),
]


def test_the_handlers_ride_on_the_first_step_and_the_submit_keeps_its_check() -> None:
    task = stateful_tasks(0)["calendar-create-01"]
    plan = FAMILIES["network/session_expiry"].recovery_plan(task)
    (handler,) = plan[0]["on"]
    assert (
        handler["redo_from"] == task.targets["redo_from"]
        and handler["redo_after"] == task.targets["submit_step"]
    )
    assert plan[1:] == task.plan[1:]  # nothing runs unless the sign-in form shows
    stale = FAMILIES["network/contradictory_update"].recovery_plan(task)[task.targets["submit_step"]]
    assert stale["expect"] == {"target": {"selector": "#toast"}, "visible": True}  # not the stale list


@pytest.mark.parametrize(("tid", "family"), PAIRS)
async def test_the_pair_recovers_within_the_bound(
    tid: str,
    family: str,
    sites: SitesHandle,
    session: BrowserSession,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = breakingweb_task(sites, 0, tid, family)  # the variant as the suite builds it
    extra = task.model_extra or {}
    result = await run_task(
        task, tmp_path, model="oracle", config=HarnessConfig(max_steps=40), session=session
    )
    with sites.control() as control:
        diff = control.diff(result.session_id)
        audit = control.audit(result.session_id)["audit"]
        requests = control.requests(result.session_id)
    assert audit, "the intervention never fired"
    state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
    assert state.passed, (state.obligations_met, state.invariants_broken)
    if not task.state_changing:
        assert score_answer(result.answer, task.answer).passed, (result.answer, task.answer)
    clean = stateful_tasks(0)[tid]
    waits = 12 if extra["primitive"] == "patience" else 0
    assert result.steps <= sum(1 for s in clean.plan if s["op"] != "answer") + 1 + 8 + waits, result.steps
