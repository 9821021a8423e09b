"""The document view on real headless Chromium: a PDF link and a PDF download open in the tab,
find_text names the page, read_text reads a table row, merged headers show, and a zip bomb
or an oversized PDF is refused with a note while the task goes on."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import pytest

from tests.documents import files
from tests.documents.serve import serve_files
from tests.support.shared_browser import harness_on
from webfovea.config import make_config

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

INDEX = """<html><body style="font:16px sans-serif">
<a id=link href="/files/note.pdf" style="position:absolute;left:100px;top:100px">Quarterly note</a>
<a id=dl href="/files/note2" download="note2.pdf" style="position:absolute;left:100px;top:200px">Download</a>
<a id=xlsx href="/files/prices.xlsx" style="position:absolute;left:100px;top:300px">Prices</a>
<a id=bomb href="/files/bomb.xlsx" style="position:absolute;left:100px;top:400px">Bomb</a>
<a id=big href="/files/big.pdf" style="position:absolute;left:100px;top:500px">Big</a>
</body></html>"""
FILES = {
    "/files/note.pdf": ("application/pdf", None, files.pdf(4)),
    "/files/note2": ("application/octet-stream", None, files.pdf(2)),
    "/files/prices.xlsx": (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "attachment",
        files.xlsx_merged(),
    ),
    "/files/bomb.xlsx": ("application/octet-stream", "attachment", files.zip_bomb()),
    "/files/big.pdf": ("application/pdf", None, files.pdf(2, padding=3 * 1024 * 1024)),
}


@pytest.fixture(scope="module")
def site():
    with serve_files(INDEX, FILES) as url:
        yield url


def click(selector_xy: tuple[int, int]) -> str:
    x, y = selector_xy
    # The screenshot is 0.75 of the 1920-wide viewport: points are in the image's pixels.
    return f"Thought: open it\nAction: click(start_box='({int(x * 0.75)},{int(y * 0.75)})')"


@asynccontextmanager
async def _harness(session, site: str, tmp_path, **options):
    async with harness_on(session, f"{site}/", config=make_config(**options)) as h:
        h.keep_downloads(tmp_path / "downloads")
        records: list[dict] = []
        h.documents.on_record = records.append
        yield h, records


async def test_a_pdf_link_opens_the_view_and_find_text_names_the_page(session, site, tmp_path):
    async with _harness(session, site, tmp_path) as (h, records):
        await h.observe()
        res = await h.step(click((130, 108)))
        assert '"note.pdf" (PDF document, 4 pages' in res.feedback
        assert "/__webfovea/doc/1/" in h.page.url
        assert await h.page.locator(".doc-page").count() == 4
        await h.observe()
        res = await h.step("Thought: t\nAction: find_text(text='Needle phrase')")
        assert "on page 4 of 4" in res.feedback
        top = await h.page.evaluate("document.querySelector('#page-4').getBoundingClientRect().top")
        assert top < 1080  # the last page was scrolled into view
        await h.observe()
        res = await h.step("Thought: t\nAction: read_text(near='Net revenue')")
        assert "Net revenue | 1,234.5 | 1,100.2" in res.feedback
        await h.observe()
        await h.step("Thought: t\nAction: back()")
        assert h.page.url == f"{site}/"
    assert (tmp_path / "downloads" / "01-note.pdf").exists()
    assert (tmp_path / "downloads" / "01-note.pdf.view.html").exists()
    assert records[0]["opened"] and records[0]["extent"] == "4 pages"


async def test_a_pdf_download_and_an_xlsx_with_merged_headers_open_the_view(session, site, tmp_path):
    async with _harness(session, site, tmp_path) as (h, _):
        await h.observe()
        res = await h.step(click((130, 208)))
        assert '"note2.pdf" (PDF document, 2 pages' in res.feedback
        assert await h.page.locator(".doc-page").count() == 2
        await h.observe()
        await h.step("Thought: t\nAction: back()")
        await h.observe()
        res = await h.step(click((120, 308)))
        assert '"prices.xlsx" (Excel workbook, 2 sheets (Prices, Wages)' in res.feedback
        head = h.page.locator("#doc-head th.c1")
        assert await head.first.get_attribute("colspan") == "2"
        assert await head.first.inner_text() == "Index"
        shot = await h.observe()
        assert shot.image is not None
        res = await h.step("Thought: t\nAction: read_text(near='North')")
        assert "North | 101.5 | 104.2 | 2.1 | 2.7 p" in res.feedback


async def test_a_zip_bomb_and_an_oversized_pdf_are_refused_and_the_task_goes_on(session, site, tmp_path):
    async with _harness(session, site, tmp_path, max_download_mb=2) as (h, records):
        await h.observe()
        res = await h.step(click((120, 408)))
        assert '"bomb.xlsx", which was kept but not opened as a document' in res.feedback
        assert "zip bomb" in res.feedback and h.page.url == f"{site}/"
        await h.observe()
        res = await h.step(click((110, 508)))
        assert '("big.pdf") was stopped: larger than 2 MB' in res.feedback
        await h.observe()
        res = await h.step("Thought: t\nAction: finished(content='done')")
        assert res.done and res.answer == "done"
    assert json.dumps(records[0]).count("zip bomb") == 1 and records[0]["opened"] is False


async def test_with_documents_off_a_pdf_stays_a_download(session, site, tmp_path):
    async with _harness(session, site, tmp_path, disable=["documents"]) as (h, records):
        await h.observe()
        res = await h.step(click((130, 108)))
        assert 'downloaded a file ("note.pdf"); it was kept' in res.feedback
        assert h.page.url == f"{site}/" and not records
