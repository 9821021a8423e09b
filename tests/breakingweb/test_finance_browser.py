"""The finance environment (a React brokerage) in real Chromium, judged from the server's
state: a person's flow (search a company, open its page, buy at the market after the review,
then cancel an open order from the history) changes the backend as it should; text typed by the
harness reaches React's state (its synthetic events), a value set by script does not; the
oracle passes one task per tier T1-T3; the same seed twice gives the same hashes; a client-layer
family shows only when the session registers it."""

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
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="module")


def tier_sample(*tiers: str) -> list[str]:
    """The first finance task of each tier named (seed 0). Every template once, T4 and T5
    included, is the benchmark command `webfovea bench breakingweb --seed 42 --only 'finance-*-01'`."""
    picked: dict[str, str] = {}
    for t in stateful_tasks(0).values():
        if t.app == "finance":
            picked.setdefault(t.targets["tier"], t.task_id)
    assert set(picked) == set(TIERS)
    return [picked[t] for t in tiers]


def seeded() -> Any:
    return APPS["finance"].initial("finance", 0)


async def _open(
    page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
) -> str:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/env/finance" + where))
    return sid


def _changes(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


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


async def _oracle(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple:
    task = next(t for t in load_breakingweb_suite(sites, seed=0) if t.task_id == task_id)
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


async def test_same_seed_twice_same_hashes(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    seen = []
    for run in range(2):  # the T1 task of the tier sample, twice
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
        await _open(page, sites, "finance-deposit-01")
        await page.locator("#positions").wait_for()
        assert await page.locator("#iv-cookies").count() == 0
        await page.context.clear_cookies()
        sid = await _open(page, sites, "finance-deposit-01", "client/cookie_banner")
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
