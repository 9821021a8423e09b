"""The travel environment (a React app) in real Chromium, judged from the server's state: a
person's booking (search with dates, filter, open a stay, reserve a room, enter the guest's
details) creates the booking it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not; the oracle passes one task per tier T1-T3;
the same seed twice gives the same hashes; a client-layer family shows only when the session
registers it. Every template once, T4 and T5 included, is the benchmark command
`webfovea bench breakingweb --seed 42 --only 'travel-*-01'` (a T5 plan alone is 20 actions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from tests.breakingweb.test_travel import TIER_SAMPLE
from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")
SORTED = """() => {
  const ps = [...document.querySelectorAll('#results article.result .price b')].map((b) => parseInt(b.textContent, 10));
  return location.hash.includes('sort=price') && ps.length > 1 && ps.every((p, i) => !i || ps[i - 1] <= p);
}"""


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    stateful_tasks(
        sites.seed
    )  # built here first: under load, building it inside the create outlasts its timeout
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/travel" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


async def test_a_person_searches_filters_and_books_a_room(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "travel-book-01")
        await page.click("#dest")
        await page.keyboard.type("Porto")
        await page.fill("#checkin", "2025-03-03")
        await page.fill("#checkout", "2025-03-06")
        await page.select_option("#guests", "3")
        await page.click("#search-go")
        await page.locator("#results").wait_for()
        await page.check("#f-free-cancel")
        await page.locator("#f-free-cancel:checked").wait_for()
        await page.select_option("#sort", "price")
        # The re-read list, cheapest first (the sort is in the address; the list is read again).
        await page.wait_for_function(SORTED)
        first = page.locator("#results article.result").first
        hid = await first.get_attribute("data-id")
        await first.locator("a.name").click()
        await page.locator(f'#stay[data-id="{hid}"]').wait_for()
        room = page.locator("#rooms tr.fits").filter(has_text="Free cancellation").first
        rid = await room.get_attribute("data-id")
        await room.locator(".reserve").click()
        await page.click("#g-name")
        await page.keyboard.type("Ana Sousa")
        await page.click("#g-email")
        await page.keyboard.type("ana.sousa@example.com")
        await page.click("#book-confirm")
        await page.locator('#trip[data-id="BK-0013"]').wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        state = APPS["travel"].initial("travel", 0)
        price = next(r.price for r in state.rooms if r.id == rid)  # type: ignore[attr-defined]
        assert [(b["property"], b["room"], b["check_in"], b["check_out"], b["guests"], b["guest_name"], b["total"])
                for b in created] == [(hid, rid, "2025-03-03", "2025-03-06", 3, "Ana Sousa", 3 * price)]  # fmt: skip
        assert next(r.refundable for r in state.rooms if r.id == rid)  # type: ignore[attr-defined]
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "travel-message-01", where="#/messages/new?property=H-0001")
        subject, send = page.locator("#msg-subject"), page.locator("#msg-send")
        await subject.wait_for()
        # A value written by script without input events: React's state never sees it.
        await subject.evaluate("el => { el.value = 'set by script'; }")
        await page.locator("#msg-body").evaluate("el => { el.value = 'also by script'; }")
        assert await send.is_disabled()
        for box, text in (
            ("#msg-subject", "Arrival time"),
            ("#msg-body", "Typed by the harness, key by key."),
        ):
            r = await page.locator(box).bounding_box()
            assert r
            done = await fill_at(page, r["x"] + 20, r["y"] + 10, text)
            assert done.ok and done.value == text, done
        assert await send.is_enabled()
        await send.click()
        await page.locator("#toast .ref").wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [(m["property"], m["subject"], m["body"]) for m in created] == [
            ("H-0001", "Arrival time", "Typed by the harness, key by key.")
        ]
    finally:
        await page.context.clear_cookies()


async def _oracle(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple[Any, ...]:
    task = next(t for t in load_breakingweb_suite(sites, seed=0) if t.task_id == task_id)
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=30), session=session)
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


async def test_same_seed_twice_same_hashes_and_the_t1_oracle_passes(
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
        await _open(page, sites, "travel-book-01")
        await page.locator("#featured").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "travel-book-01", "client/cookie_banner")
        await page.locator("#iv-cookies").wait_for()
        await page.click("#iv-cookies .iv-reject")
        await page.locator("#iv-cookies").wait_for(state="hidden")
        with sites.control() as control:
            events = [e.get("event") for e in control.audit(sid)["audit"]]
        assert events == ["cookies_shown", "cookies_chosen"]
    finally:
        await page.context.clear_cookies()
