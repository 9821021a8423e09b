"""The healthcare environment (a React app) in real Chromium, judged from the server's state: a
patient's flow (schedule a visit: provider, open time, visit type, reason) changes the backend
as it should; text typed by the harness reaches React's state (its synthetic events), a value
set by script does not; the oracle passes one task per tier T1-T3; the same seed twice gives
the same hashes; a client-layer family shows only when the session registers it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest
from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.obligations import StateScore, score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")


# One task per tier T1-T3 (seed 0), the cheapest template of each (2, 4 and 6 actions): the
# oracle runs T1 twice (for the hashes), T2 and T3. Every template once, T4 and T5 included, is
# the benchmark command `webfovea bench breakingweb --seed 42 --only 'healthcare-*-01'`.
TIER_SAMPLE = {
    "T1": "healthcare-read-message-01",
    "T2": "healthcare-refill-01",
    "T3": "healthcare-update-contact-01",
}


def portal() -> HealthState:
    return cast(HealthState, APPS["healthcare"].initial("healthcare", 0))


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/healthcare" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


async def test_a_patient_schedules_a_visit_with_the_provider_and_slot_pickers(
    sites: SitesHandle, session: BrowserSession
) -> None:
    state = portal()
    doc = state.providers[1]
    held = {a.slot for a in state.appointments if a.status == "scheduled"}
    slot = next(s for s in state.slots if s.provider == doc.id and s.id not in held)
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "healthcare-schedule-01")
        await page.click("#nav-appointments")
        await page.click("#appt-new")
        await page.select_option("#sched-provider", doc.id)
        await page.click(f'.slot[data-id="{slot.id}"]')
        await page.select_option("#sched-type", "Video visit")
        await page.click("#sched-reason")
        await page.keyboard.type("Chest tightness when running")
        await page.click("#sched-submit")
        await page.locator("#toast .ref").wait_for()
        new = (await page.text_content("#toast .ref")) or ""
        # The visits page opens once the re-read list holds it, with the time as the picker showed it.
        row = page.locator(f'#upcoming tr[data-id="{new}"]')
        await row.wait_for()
        assert "at " in ((await row.locator(".when").text_content()) or "")
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [(a["id"], a["provider"], a["slot"], a["visit_type"], a["reason"]) for a in created] == [
            (new, doc.id, slot.id, "Video visit", "Chest tightness when running")
        ]
        assert len(_changes(sites, sid)) == 1  # nothing else moved
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(
            page, sites, "healthcare-compose-01", where="#/messages/new?to=D-0001&subject=Hello"
        )
        box, send = page.locator("#msg-body"), page.locator("#msg-send")
        await box.wait_for()
        await page.locator('#msg-to option[value="D-0001"]').wait_for(state="attached")
        assert await send.is_disabled()
        # A value written by script without input events: React's state never sees it.
        await box.evaluate("el => { el.value = 'set by script'; }")
        assert await send.is_disabled()
        r = await box.bounding_box()
        assert r
        typed = "Typed by the harness, key by key."
        done = await fill_at(page, r["x"] + 20, r["y"] + 10, typed)
        assert done.ok and done.value == typed, done
        assert await send.is_enabled()
        await send.click()
        await page.locator("#toast .ref").wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [(m["recipient"], m["subject"], m["body"]) for m in created] == [
            ("Dr. Ada Berg", "Hello", typed)
        ]
    finally:
        await page.context.clear_cookies()


async def _oracle(
    task_id: str, sites: SitesHandle, session: BrowserSession, out: Path
) -> tuple[StateScore, Any, Any]:
    task = next(t for t in load_breakingweb_suite(sites, seed=0) if t.task_id == task_id)
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
    extra = task.model_extra or {}
    return score_state(diff["diff"], extra["obligations"], extra["noise"]), diff, audit


@pytest.mark.parametrize("task_id", [TIER_SAMPLE["T2"], TIER_SAMPLE["T3"]])
async def test_the_oracle_passes_one_task_per_tier(
    task_id: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    state, _, _ = await _oracle(task_id, sites, session, tmp_path)
    assert state.passed, state


async def test_same_seed_twice_same_hashes_on_a_t1_task(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    seen = []
    for run in range(2):
        state, diff, audit = await _oracle(TIER_SAMPLE["T1"], sites, session, tmp_path / str(run))
        seen.append(
            (
                state.passed,
                diff["initial_sha256"],
                diff["final_sha256"],
                diff["diff_sha256"],
                audit["audit_sha256"],
            )
        )
    assert seen[0] == seen[1] and seen[0][0] and seen[0][1] != seen[0][2]


async def test_a_client_family_shows_only_when_the_session_registers_it(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        await _open(page, sites, "healthcare-refill-01")
        await page.locator("#home").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "healthcare-refill-01", "client/cookie_banner")
        await page.locator("#iv-cookies").wait_for()
        await page.click("#iv-cookies .iv-reject")
        await page.locator("#iv-cookies").wait_for(state="hidden")
        with sites.control() as control:
            assert [e.get("event") for e in control.audit(sid)["audit"]] == [
                "cookies_shown",
                "cookies_chosen",
            ]
    finally:
        await page.context.clear_cookies()
