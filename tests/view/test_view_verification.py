"""Protocol III's verification queue in the viewer, in headless Chromium: the queued tasks are
listed by a filter (to verify / verified), a person verifies one by clicking, and the label is
read back from the run's label file; the list then moves it from "to verify" to "verified"."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio

from tests.view.fixture_run import serving
from webfovea.judge.labels import read_labels
from webfovea.judge.verification import QUEUE_FILE

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def page(session):
    p = await session.fresh_page()
    yield p


def _queue(run) -> None:
    """What `bench --protocol III` writes: two of the three tasks queued, one line not an entry."""
    rows = [
        {"task_id": "cpi-vn", "task": "CPI", "answer": "3.4", "expected": "3.4", "scored_correct": True},
        {"task_id": "gdp-th", "task": "GDP", "answer": "7.1", "expected": "6.9", "scored_correct": False},
    ]
    text = "".join(json.dumps(r) + "\n" for r in rows) + "not json\n"
    (run / QUEUE_FILE).write_text(text, encoding="utf-8")


async def _ids(page) -> list[str]:
    return [
        await r.get_attribute("data-task-id") for r in await page.locator("#tasks tr[data-task-id]").all()
    ]


async def test_the_queue_is_a_filter_and_a_click_verifies(run, page):
    _queue(run)
    with serving(run) as url:
        await page.goto(url)
        assert "verification queue (2)" in await page.locator("#filters").inner_text()
        await page.select_option("select[name=verify]", "pending")
        await page.click("#filters button")
        await page.wait_for_url("**verify=pending**")
        assert await _ids(page) == ["cpi-vn", "gdp-th"]  # pop-la was never queued
        cell = page.locator('#tasks tr[data-task-id="gdp-th"] td').last
        assert await cell.inner_text() == "to verify"

        await page.click('#tasks a:text("gdp-th")')
        await page.wait_for_selector("#verification")
        block = " ".join((await page.locator("#verification").inner_text()).split())
        assert "answer 7.1 · expected 6.9 · scored incorrect" in block
        await page.check("input[name=label][value=failure]")
        await page.fill("textarea[name=note]", "6.9 is the 2024 figure")
        await page.fill("#labeller", "vera")
        await page.click("#save-label")
        await page.wait_for_selector("#saved")

        await page.goto(url + "run/0/?verify=pending")
        assert await _ids(page) == ["cpi-vn"]
        await page.goto(url + "run/0/?verify=done")
        assert await _ids(page) == ["gdp-th"]
        assert await page.locator('#tasks tr[data-task-id="gdp-th"] td').last.inner_text() == "verified"
        await page.goto(url + "run/0/?verify=bogus")  # an unknown value is no filter
        assert len(await _ids(page)) == 3

    label = read_labels(run / "labels.jsonl")["gdp-th"]
    assert (label.label, label.labeller, label.note) == ("failure", "vera", "6.9 is the 2024 figure")


async def test_a_run_without_a_queue_shows_no_queue_filter(run, page):
    with serving(run) as url:
        await page.goto(url)
        assert await page.locator("select[name=verify]").count() == 0
        await page.goto(url + "run/0/task/cpi-vn")
        assert await page.locator("#verification").count() == 0
