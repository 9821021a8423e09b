"""The ecommerce environment (a React app) in real Chromium, judged from the server's state: a
shopper's flow (a product's size and colour, Add to cart, the cart, checkout with a delivery
speed) places the order it should; text typed by the harness reaches React's state (its
synthetic events), a value set by script does not; the oracle passes one task per tier T1-T3;
the same seed twice gives the same hashes; a client-layer family shows only when the session
registers it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

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
SEED = 42  # the module's sites run the catalogue's seed


def tier_sample(*tiers: str) -> list[str]:
    """The first ecommerce task of each tier named (seed 42). Every template once, T4 and T5
    included, is the benchmark command `webfovea bench breakingweb --seed 42 --only 'ecommerce-*-01'`."""
    picked: dict[str, str] = {}
    for t in APPS["ecommerce"].tasks(SEED):  # type: ignore[misc]
        picked.setdefault(t.targets["tier"], t.task_id)
    return [picked[t] for t in tiers]


def shop() -> Any:
    """The seeded shop of seed 42, as every session starts."""
    return APPS["ecommerce"].initial("ecommerce", SEED)


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    stateful_tasks(sites.seed)  # built here, not inside the control call's 10 s (the sites share the cache)
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/ecommerce" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


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


async def _oracle(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple[Any, ...]:
    task = next(t for t in load_breakingweb_suite(sites, seed=SEED) if t.task_id == task_id)
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
    extra = task.model_extra or {}
    return score_state(diff["diff"], extra["obligations"], extra["noise"]), diff, audit


@pytest.mark.parametrize("task_id", tier_sample("T2", "T3"))
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
        state, diff, audit = await _oracle(tier_sample("T1")[0], sites, session, tmp_path / str(run))
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
        await _open(page, sites, "ecommerce-add-options-01")
        await page.locator("#home").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "ecommerce-add-options-01", "client/cookie_banner")
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
