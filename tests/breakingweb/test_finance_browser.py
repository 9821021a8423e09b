"""The finance environment (a React brokerage) in real Chromium, judged from the server's
state: a person's flow (search a company, open its page, buy at the market after the review,
then cancel an open order from the history) changes the backend as it should; text typed by the
harness reaches React's state (its synthetic events), a value set by script does not. The checks every environment
shares (the oracle per tier, the same hashes twice, a client family) are in
test_react_envs_browser.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.breakingweb.react_env import changes as _changes
from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea.execution.forms import fill_at
from webfovea_breakingweb.apps import APPS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
_open = opener("finance")


def seeded() -> Any:
    return APPS["finance"].initial("finance", 0)


async def test_a_person_buys_after_the_review_and_cancels_an_open_order(
    sites: SitesHandle, session: BrowserSession
) -> None:
    state = seeded()
    nvlt = next(s for s in state.stocks if s.id == "NVLT")
    held = next((p for p in state.positions if p.id == "NVLT"), None)
    rest = next(o for o in state.orders if o.status == "open" and o.side == "buy")
    bp = state.accounts[0].buying_power
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "finance-deposit-01")
        await page.click("#search-q")
        await page.keyboard.type("Northvale")
        await page.click("#search-go")
        await page.click('#results li[data-symbol="NVLT"] a.sym')
        await page.click("#order-shares")
        await page.keyboard.type("2")
        await page.click("#order-review")
        assert "Buy 2 shares of NVLT at the market price" in (
            await page.text_content("#review-summary") or ""
        )
        assert _changes(sites, sid) == []  # the review sends nothing
        await page.click("#order-submit")
        await page.locator("#toast .ref").wait_for()
        oid = await page.text_content("#toast .ref")
        await page.click("#nav-orders")
        row = f'#orders tr[data-id="{rest.id}"]'
        await page.click(f"{row} .cancel")
        await page.click(f"{row} .confirm-cancel")
        await page.locator(f"{row}.cancelled").wait_for()
        changes = _changes(sites, sid)
        updates = {(c["entity"], c["id"], c["field"]): c["after"] for c in changes if c["op"] == "update"}
        refund = rest.shares * (rest.limit_price or 0)
        assert updates[("accounts", "ACC-1", "buying_power")] == bp - 2 * nvlt.price + refund
        assert updates[("orders", rest.id, "status")] == "cancelled"
        if held:
            assert updates[("positions", "NVLT", "shares")] == held.shares + 2
        created = [(c["entity"], c["id"]) for c in changes if c["op"] == "create"]
        assert ("orders", oid) in created and (held or ("positions", "NVLT") in created)
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "finance-deposit-01", where="?view=/transfers")
        box, review = page.locator("#tr-amount"), page.locator("#tr-review")
        await box.wait_for()
        assert await review.is_disabled()
        # A value written by script without input events: React's state never sees it.
        await box.evaluate("el => { el.value = '125.00'; }")
        assert await review.is_disabled()
        r = await box.bounding_box()
        assert r
        done = await fill_at(page, r["x"] + 20, r["y"] + 8, "125.00")
        assert done.ok and done.value == "125.00", done
        await review.click()
        assert "Deposit $125.00 from" in (await page.text_content("#tr-summary") or "")
        await page.click("#tr-confirm")
        await page.locator("#toast .ref").wait_for()
        created = [c["after"] for c in _changes(sites, sid) if c["op"] == "create"]
        assert [(t["direction"], t["amount"]) for t in created] == [("deposit", 12500)]
    finally:
        await page.context.clear_cookies()
