"""The viewer in headless Chromium: a person browses a run, labels a task by clicking and reviews
a manual; `judge compare` and Protocol II's manual reader read what was written."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.view.fixture_run import MANUAL, serving
from webfovea.judge.compare import compare
from webfovea.judge.labels import read_labels
from webfovea.judge.manuals import docs_for

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def page(session):
    p = await session.fresh_page()
    await p.set_viewport_size({"width": 1280, "height": 900})
    yield p


async def _text(page, selector: str) -> str:
    return " ".join((await page.locator(selector).first.inner_text()).split())


async def test_label_recorded_by_clicking_is_read_by_judge_compare(run, page):
    with serving(run) as url:
        await page.goto(url)  # one run: straight to its task list
        rows = page.locator("#tasks tr[data-task-id]")
        assert await rows.count() == 3
        assert (
            await _text(page, '#tasks tr[data-task-id="gdp-th"]') == "gdp-th finished 7.1 — fail pass"
        )  # naveval, rule

        # filter: only the task the judges disagree on
        await page.check("input[name=disagree]")
        await page.click("#filters button")
        await page.wait_for_selector('#tasks tr[data-task-id="gdp-th"]')
        assert await rows.count() == 1

        await page.click('#tasks a:text("gdp-th")')
        await page.wait_for_selector("#label-form")
        shot = page.locator("li.step img").nth(1)
        assert (await shot.get_attribute("src")).startswith("/run/0/file/gdp-th/step_001_marked.png")
        await shot.scroll_into_view_if_needed()
        await page.wait_for_function(
            "() => document.querySelectorAll('li.step img')[1].naturalWidth === 1440"
        )
        assert "data:image" not in await page.content()  # screenshots are served, never inlined
        assert "The table is <b>below</b>" in await _text(page, "li.step .thought")  # escaped text
        assert "the row opened" in await page.locator("li.step .feedback").nth(1).inner_text()
        assert (
            await _text(page, '#judges tr[data-method="naveval"]') == "naveval fail naveval naveval on gdp-th"
        )

        await page.check("input[name=label][value=failure]")
        await page.fill("textarea[name=note]", "the row is Thailand's, the answer unchecked")
        await page.fill("#labeller", "ana")
        await page.click("#save-label")
        await page.wait_for_selector("#saved")
        assert "failure by ana" in await _text(page, "#current-label")
        await page.click("#next-task")  # labelling goes on with the run's next task
        await page.wait_for_selector("#label-form")
        assert await _text(page, "#task-id") == "pop-la"

    labels = read_labels(run / "labels.jsonl")
    assert labels["gdp-th"].label == "failure" and labels["gdp-th"].labeller == "ana"
    table = compare("beside", [run], ["rule", "naveval"])
    rows_by = {r["method"]: r for r in table["methods"]}
    assert rows_by["rule"]["n"] == 1 and rows_by["rule"]["far"] == 1.0  # rule passed a labelled failure
    assert rows_by["naveval"]["n"] == 1 and rows_by["naveval"]["ar"] == 1.0


async def test_request_evidence_loads_when_opened(run, page):
    with serving(run) as url:
        await page.goto(url + "run/0/task/cpi-vn")
        assert await _text(page, "#requests .body") == ""  # closed: not read yet
        await page.click("#requests summary")
        await page.wait_for_function(
            "() => document.querySelector('#requests .body').textContent.includes('kept')"
        )
        body = await _text(page, "#requests .body")
        assert "1 request(s) kept" in body and "indicator" in body and "user-agent" not in body


async def test_manual_review_by_clicking_lands_where_protocol_ii_reads(run, page):
    manuals = run / "manuals"
    assert docs_for("cpi-vn", manuals) == MANUAL
    with serving(run) as url:
        await page.goto(url + "run/0/manuals")
        assert await _text(page, '#manuals tr[data-manual="gdp-th"]') == "gdp-th not reviewed check step 1"
        await page.click('#manuals a:text("cpi-vn")')
        await page.wait_for_selector("#review-form")
        edited = MANUAL.replace("1. Click the row Viet Nam.", "1. Choose Viet Nam in the Country list.")
        await page.fill("textarea[name=text]", edited)
        await page.fill("#labeller", "bo")
        await page.click("#save-edit")
        await page.wait_for_selector("#saved")
        assert "edit by bo" in await _text(page, "#review-state")

        await page.goto(url + "run/0/manual/gdp-th")
        await page.fill("#labeller", "bo")
        await page.click("#reject")
        await page.wait_for_selector("#saved")

    assert docs_for("cpi-vn", manuals) == edited
    assert docs_for("cpi-vn--v1a2b", manuals) == edited  # a fault variant takes its task's
    assert docs_for("gdp-th", manuals) is None
    assert (manuals / "cpi-vn.md").read_text() == MANUAL  # the writer's file is kept as written


async def test_a_malformed_label_file_is_shown_with_its_line(run, page):
    (run / "labels.jsonl").write_text(
        '{"task_id": "cpi-vn", "label": "success"}\n{"task_id": "gdp-th", "label": "yes"}\n', encoding="utf-8"
    )
    with serving(run) as url:
        await page.goto(url + "run/0/")
        error = await _text(page, "#label-error")
        assert "labels.jsonl line 2" in error and "'yes'" in error
        await page.goto(url + "run/0/task/cpi-vn")
        assert "line 2" in await _text(page, "#label-error")
        assert await page.locator("#save-label").count() == 0  # no label is added to a broken file
