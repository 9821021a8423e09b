"""The healthcare environment (a React app) in real Chromium, judged from the server's state: a
patient's flow (schedule a visit: provider, open time, visit type, reason) changes the backend
as it should; text typed by the harness reaches React's state (its synthetic events), a value
set by script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py."""

from __future__ import annotations

from typing import cast

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("healthcare")


def portal() -> HealthState:
    return cast(HealthState, APPS["healthcare"].initial("healthcare", 0))


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
