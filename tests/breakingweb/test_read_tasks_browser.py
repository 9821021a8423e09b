"""What the three reading families add, drawn by the React pages (react/kit/Shell.jsx and the
environments' lists), in real Chromium: seed/planted_answer's Key figures box holds a stale
value beside the true one in the table; seed/split_information's list shows the unit's code and
the Codes legend its name; server/scrambled_timestamps' list comes out of time order with some
dates written another way. A clean session shows none of them."""

from __future__ import annotations

import pytest

from tests.breakingweb.react_env import opener
from webfovea.browser.session import BrowserSession
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
SEED = 42  # the module's sites run the catalogue's seed


async def test_planted_answer_draws_a_stale_key_figure_above_the_true_table(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = stateful_tasks(SEED)["finance-position-value-01"]
    page = await session.fresh_page()
    try:
        await opener("finance")(page, sites, task.task_id, "seed/planted_answer")
        box = page.locator("#key-figures .kf")
        await box.wait_for()
        assert await box.locator(".name").inner_text() == task.targets["figure"]["name"]
        stale = (await box.locator(".value").inner_text()).replace(",", "")
        assert stale != task.answer and "2022" in await box.locator(".asof").inner_text()
        true = await page.locator("#positions tr[data-symbol] td.value").first.inner_text()
        assert true  # the table is drawn beside the box
    finally:
        await page.close()
    page = await session.fresh_page()
    try:
        await opener("finance")(page, sites, task.task_id)  # clean: no box
        await page.locator("#positions tbody tr").first.wait_for()
        assert await page.locator("#key-figures").count() == 0
    finally:
        await page.close()


async def test_split_information_shows_codes_and_the_legend_names_them(
    sites: SitesHandle, session: BrowserSession
) -> None:
    task = stateful_tasks(SEED)["healthcare-latest-result-orderer-01"]
    code = task.targets["unit"]
    page = await session.fresh_page()
    try:
        await opener("healthcare")(page, sites, task.task_id, "seed/split_information", "#/results")
        await page.locator("#results tbody tr").first.wait_for()
        shown = await page.locator("#results td.ordered-by").all_inner_texts()
        assert code in shown and task.answer not in shown
        await page.locator('nav.tabs a[data-view="units"]').click()
        assert await page.locator(f'#units tr[data-id="{code}"] td.name').inner_text() == task.answer
        assert page.url.endswith("#/results")  # the legend opens in place
    finally:
        await page.close()


async def test_scrambled_timestamps_reorders_the_list_and_rewrites_dates(
    sites: SitesHandle, session: BrowserSession
) -> None:
    tid = "healthcare-latest-result-orderer-01"

    async def listed(variant: str | None) -> tuple[list[str], list[str]]:
        page = (
            await session.fresh_page()
        )  # a page each: a goto that changes only the cookie keeps the document
        try:
            await opener("healthcare")(page, sites, tid, variant, "#/results")
            await page.locator("#results tbody tr").first.wait_for()
            rows = await page.locator("#results tbody tr").evaluate_all("rs => rs.map((r) => r.dataset.id)")
            return rows, await page.locator("#results td.collected").all_inner_texts()
        finally:
            await page.close()

    clean, _ = await listed(None)
    rows, dates = await listed("server/scrambled_timestamps")
    assert sorted(rows) == sorted(clean) and rows[0] != clean[0] and rows[-1] != clean[-1]
    # The page draws an ISO day as "Dec 3, 2024"; a rewritten one ("03 Dec 2024") as it came.
    assert any(d[:2].isdigit() for d in dates) and any(d[:3].isalpha() for d in dates), dates
