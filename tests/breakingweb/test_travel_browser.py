"""The travel environment (a React app) in real Chromium, judged from the server's state: a
person's booking (search with dates, filter, open a stay, reserve a room, enter the guest's
details) creates the booking it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py. Every template once, T4 and T5 included, is the benchmark command
`webfovea bench breakingweb --seed 42 --only 'travel-*-01'` (a T5 plan alone is 20 actions)."""

from __future__ import annotations

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("travel")
SORTED = """() => {
  const ps = [...document.querySelectorAll('#results article.result .price b')].map((b) => parseInt(b.textContent, 10));
  return location.hash.includes('sort=price') && ps.length > 1 && ps.every((p, i) => !i || ps[i - 1] <= p);
}"""


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
