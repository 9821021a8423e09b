"""The ecommerce environment (a React app) in real Chromium, judged from the server's state: a
shopper's flow (a product's size and colour, Add to cart, the cart, checkout with a delivery
speed) places the order it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not. The checks every environment
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
_open = opener("ecommerce")
SEED = 42  # the module's sites run the catalogue's seed


def shop() -> Any:
    """The seeded shop of seed 42, as every session starts."""
    return APPS["ecommerce"].initial("ecommerce", SEED)


async def test_a_shopper_chooses_options_adds_to_cart_and_checks_out(
    sites: SitesHandle, session: BrowserSession
) -> None:
    state = shop()
    held = {x.product for x in state.cart}
    p = next(x for x in state.products if x.sizes and x.colours and x.stock >= 3 and x.id not in held)
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "ecommerce-checkout-cart-01", where=f"#/p/{p.id}")
        await page.select_option("#size", p.sizes[-1])
        await page.select_option("#colour", p.colours[-1])
        await page.select_option("#qty", "2")
        await page.click("#add-to-cart")
        await page.locator("#toast .ref").wait_for()
        await page.locator("#nav-cart .count", has_text=str(sum(x.qty for x in state.cart) + 2)).wait_for()
        await page.click("#nav-cart")
        await page.click("#to-checkout")
        await page.locator("#place-order").wait_for()
        await page.select_option("#ship-to", "AD-0003")
        await page.click("#delivery-next-day")
        await page.click("#place-order")
        await page.locator("#order #order-delivery", has_text="Next day").wait_for()
        changes = _changes(sites, sid)
        assert sorted(c["id"] for c in changes if c["op"] == "delete") == sorted(x.id for x in state.cart)
        order = next(c["after"] for c in changes if c["op"] == "create")
        assert (order["address"], order["delivery"], order["payment"]) == ("AD-0003", "next-day", "PM-0001")
        assert order["lines"][-1] == {"product": p.id, "name": p.name, "size": p.sizes[-1], "colour": p.colours[-1],
                                      "qty": 2, "price": p.price}  # fmt: skip
    finally:
        await page.context.clear_cookies()


async def test_harness_typing_reaches_react_state_and_a_script_value_does_not(
    sites: SitesHandle, session: BrowserSession
) -> None:
    line = shop().cart[0]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "ecommerce-cart-qty-01", where="#/cart")
        box = page.locator(f"#qty-{line.id}")
        update = page.locator(f'#cart tr.line[data-id="{line.id}"] .update')
        await box.wait_for()
        # A value written by script without input events: React's state never sees it, so
        # Update sends the quantity the cart already had.
        await box.evaluate("el => { el.value = '7'; }")
        await update.click()
        await page.locator("#toast").wait_for()
        assert [c for c in _changes(sites, sid) if c["entity"] == "cart"] == []
        r = await box.bounding_box()
        assert r
        done = await fill_at(page, r["x"] + 10, r["y"] + 8, "4")
        assert done.ok and done.value == "4", done
        await update.click()
        await page.locator("#cart-summary", has_text="Subtotal (").wait_for()
        await page.locator("#toast", has_text="updated to 4").wait_for()
        assert [(c["id"], c["field"], c["after"]) for c in _changes(sites, sid)] == [(line.id, "qty", 4)]
    finally:
        await page.context.clear_cookies()
