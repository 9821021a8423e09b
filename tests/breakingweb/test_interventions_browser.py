"""Per family of the first catalogue, on real Chromium: what exactly the page shows (the DOM,
an HTTP status or a read-back). Judged from the page, the server's state and logs, never
from the harness's records. Every family's generic design-rule checks (recoverable by the
oracle, deterministic, detectable by its declared kind) are in test_design_rules.py."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")

# A task each probed family applies to (the probes below know its page).
TASK_OF = {
    "seed/planted_answer": "req-lookup-01",
    "seed/decoys": "req-lookup-01",
    "seed/split_information": "req-unit-01",
    "server/scrambled_timestamps": "req-latest-01",
    "server/save_drift": "req-edit-01",
    "network/fabricated_success": "case-resolve-01",
    "network/transient_5xx": "case-resolve-01",
    "network/rate_limit_429": "case-resolve-01",
    "network/tail_latency": "case-resolve-01",
    "network/progressive_delay": "case-resolve-01",
    "network/session_expiry": "case-resolve-01",
    "client/intercepting_overlay": "req-lookup-01",
    "client/swallowed_click": "case-resolve-01",
    "client/label_shift": "req-edit-01",
}


async def test_the_probed_families_are_registered() -> None:
    assert set(TASK_OF) <= set(FAMILIES)


async def _open(page: Page, sites: SitesHandle, task_id: str, variant: str | None, view: str = "") -> str:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    app = {"req": "requests", "case": "cases", "book": "booking"}[task_id.split("-")[0]]
    await page.goto(sites.url(f"/app/{app}{view}"))
    await page.wait_for_selector("#app > *")
    return sid


async def _fill_edit(page: Page) -> None:
    await page.click('#records tr[data-id="R-0002"] .edit')
    await page.fill("#f-delivery", "2025-05-07")


def _statuses(sites: SitesHandle, sid: str) -> list[int]:
    with sites.control() as control:
        return [e["status"] for e in control.requests(sid) if e["path"].startswith("/api/")]


async def _detect(page: Page, sites: SitesHandle, fam: str, task_id: str) -> None:
    resolve = "#records tr[data-id] .act-resolve"
    if fam == "seed/planted_answer":
        await _open(page, sites, task_id, fam, "#/catalogue/Prices")
        box, table = (
            await page.inner_text("#key-figures"),
            await page.inner_text('#catalogue tr[data-id="S02"] td.value'),
        )
        assert "as of" in box and table not in box
    elif fam == "seed/decoys":
        await _open(page, sites, task_id, fam, "#/catalogue/Prices")
        names = await page.locator("#catalogue td.name").all_inner_texts()
        assert sum(n.startswith("Consumer prices, energy") for n in names) == 3
    elif fam == "seed/split_information":
        await _open(page, sites, task_id, fam, "#/catalogue/Labour")
        assert await page.is_visible("#unit-note")
        assert (await page.inner_text('#catalogue tr[data-id="S06"] td.unit')).startswith("U")
    elif fam == "server/scrambled_timestamps":
        await _open(page, sites, task_id, fam, "#/catalogue")
        released = await page.locator("#catalogue td.released").all_inner_texts()
        days = [_day(r) for r in released]  # every date still reads as a day, in mixed notations
        assert days[0] != max(days) and len({_notation(r) for r in released}) > 1
    elif fam == "server/save_drift":
        await _open(page, sites, task_id, fam)
        await _fill_edit(page)
        await page.click("#save")
        await page.wait_for_selector("#toast:not([hidden])")
        # The list re-renders from the API after the toast; on a loaded machine that comes later.
        row = page.locator('#records tr[data-id="R-0002"]')
        await row.filter(has_text="2025-07-05").wait_for(timeout=15_000)
        assert "2025-07-05" in await row.inner_text()  # read-back differs
    elif fam == "network/fabricated_success":
        sid = await _open(page, sites, task_id, fam)
        await page.locator(resolve).nth(4).click()
        await page.wait_for_selector("#toast:not([hidden])")
        assert (
            "resolved" not in await page.locator("#records td.status").all_inner_texts()
        )  # the re-read list disagrees
        assert 200 in _statuses(sites, sid)
    elif fam in ("network/transient_5xx", "network/rate_limit_429", "network/session_expiry"):
        sid = await _open(page, sites, task_id, fam)
        await page.locator(resolve).nth(4).click()
        code = {"network/transient_5xx": 503, "network/rate_limit_429": 429, "network/session_expiry": 401}[
            fam
        ]
        if code == 401:
            await page.wait_for_selector("#login")
        else:
            await page.wait_for_selector("#error:not([hidden])")
            assert str(code) in await page.inner_text("#error")
        assert code in _statuses(sites, sid)
    elif fam in ("network/tail_latency", "network/progressive_delay"):
        await _open(page, sites, task_id, fam)
        await page.locator(resolve).nth(4).click()
        assert await page.is_visible("#busy") and await page.get_attribute("#app", "aria-busy") == "true"
        await page.wait_for_selector("#busy", state="hidden", timeout=8000)
    elif fam == "client/intercepting_overlay":
        await _open(page, sites, task_id, fam)
        await page.click('nav.tabs a[data-view="catalogue"]')
        await page.click('nav.tabs a[data-view="units"]')
        await page.wait_for_selector("#iv-overlay")
        box = await page.locator('nav.tabs a[data-view="list"]').bounding_box()
        assert box is not None
        on_top = await page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y).closest('#iv-overlay')",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top
    elif fam == "client/swallowed_click":
        sid = await _open(page, sites, task_id, fam)
        await page.locator(resolve).nth(4).click()
        await page.wait_for_timeout(300)
        assert await page.is_hidden("#toast") and not [s for s in _statuses(sites, sid)[1:]]
    elif fam == "client/label_shift":
        await _open(page, sites, task_id, fam)
        await page.click('#records tr[data-id="R-0002"] .edit')
        await page.wait_for_selector("#f-delivery")
        label = await page.locator('label[for="f-delivery"]').bounding_box()
        own, nxt = (
            await page.locator("#f-delivery").bounding_box(),
            await page.locator("#f-format").bounding_box(),
        )
        assert label and own and nxt
        mid = label["y"] + label["height"] / 2
        assert abs(mid - (nxt["y"] + nxt["height"] / 2)) < abs(mid - (own["y"] + own["height"] / 2))
    else:
        raise AssertionError(f"no detectability probe for {fam}")


@pytest.mark.parametrize("fam", sorted(TASK_OF))
async def test_detectable(fam: str, sites: SitesHandle, session: BrowserSession) -> None:
    page = await session.fresh_page()
    try:
        await _detect(page, sites, fam, TASK_OF[fam])
    finally:
        await page.context.clear_cookies()


@pytest.mark.parametrize("variant", ["case-move-01--fabricated_success", "req-lookup-01--planted_answer"])
async def test_same_run_twice_gives_the_same_hashes(
    variant: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the oracle, the same task, seed and variant: same initial state, audit bytes and diff."""
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    fam = variant.split("--")[1]
    task = breakingweb_task(sites, sites.seed, variant.split("--")[0], fam)  # as the suite builds it
    assert task.task_id == variant
    seen = []
    for run in range(2):
        result = await run_task(
            task, tmp_path / str(run), model="oracle", config=HarnessConfig(max_steps=20), session=session
        )
        with sites.control() as control:
            d, a = control.diff(result.session_id), control.audit(result.session_id)
        seen.append((d["initial_sha256"], d["diff_sha256"], a["audit_sha256"], result.answer))
    assert seen[0] == seen[1]


async def test_swallowed_click_counts_per_session_not_per_page_load(
    sites: SitesHandle, session: BrowserSession
) -> None:
    """The first click on the button is swallowed; after a reload (verify's re-read) the next
    click is the session's second and goes through: the backend really holds the change."""
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "case-resolve-01", "client/swallowed_click")
        button = page.locator("#records tr[data-id] .act-resolve").nth(4)
        case_id = await page.locator("#records tr[data-id]").nth(4).get_attribute("data-id")
        await button.click()
        for _ in range(50):  # the page reports the swallowed click to the server (best effort fetch)
            with sites.control() as control:
                if any(e.get("event") == "click_swallowed" for e in control.audit(sid)["audit"]):
                    break
            await page.wait_for_timeout(100)
        else:
            raise AssertionError("the swallowed click never reached the audit log")
        with sites.control() as control:
            assert control.diff(sid)["diff"] == []
        await page.reload()
        await page.wait_for_selector("#records tr[data-id]")
        await page.locator("#records tr[data-id] .act-resolve").nth(4).click()
        row = page.locator(f'#records tr[data-id="{case_id}"] td.status')
        await row.filter(has_text="resolved").wait_for(timeout=15_000)
        with sites.control() as control:
            diff = control.diff(sid)["diff"]
            audit = control.audit(sid)["audit"]
        assert {(c["id"], c["field"], c["after"]) for c in diff if c["op"] == "update"} >= {
            (case_id, "status", "resolved")
        }
        assert [e["ordinal"] for e in audit if e.get("event") == "click_swallowed"] == [1]
    finally:
        await page.context.clear_cookies()


async def test_retrieval_obligation_reads_the_filter_from_the_server_log(
    sites: SitesHandle, session: BrowserSession
) -> None:
    """The lookup's obligation holds only once the page really asked the server for the filtered table."""
    task = breakingweb_task(sites, sites.seed, "req-lookup-01")
    obligations = (task.model_extra or {})["obligations"]
    page = await session.fresh_page()
    try:
        sid = await _open(page, sites, "req-lookup-01", None, "#/catalogue")
        await page.wait_for_selector("#catalogue")
        with sites.control() as control:
            assert not score_state([], obligations, requests=control.requests(sid)).passed  # all topics only
        await page.select_option("#filter", "Prices")
        await page.click("#apply")
        await page.wait_for_selector("#shown:has-text('Prices')")
        with sites.control() as control:
            assert score_state([], obligations, requests=control.requests(sid)).passed
    finally:
        await page.context.clear_cookies()


def _notation(text: str) -> str:
    return "iso" if text[:4].isdigit() else ("day first" if text[:1].isdigit() else "month first")


def _day(text: str) -> date:
    for notation in ("%Y-%m-%d", "%d %b %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(text.strip(), notation).date()
        except ValueError:
            pass
    raise ValueError(f"not a date: {text!r}")
