"""find_text/read_text on an opened document search all of it (every sheet, every row, not
only the 200 rows shown), and tiny hostile documents are refused with a note while the task
goes on — on real headless Chromium."""

from __future__ import annotations

import io

import pytest

from tests.documents import hostile_files as hostile
from tests.documents.serve import serve_files
from tests.support.shared_browser import harness_on
from webfovea.config import make_config

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

INDEX = """<html><body style="font:16px sans-serif">
<a id=book href="/files/trade.xlsx" style="position:absolute;left:100px;top:100px">Trade</a>
<a id=merge href="/files/merge.xlsx" style="position:absolute;left:100px;top:200px">Merge</a>
<a id=csv href="/files/export.csv" style="position:absolute;left:100px;top:300px">Export</a>
<a id=tall href="/files/tall.pdf" style="position:absolute;left:100px;top:400px">Tall</a>
</body></html>"""
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _trade() -> bytes:
    """Two sheets: 'Exports' of 1,000 rows (row 901 holds Zanzibar) and 'Ports' (Zanzibar on row 3)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Exports"
    ws.append(["Consignment", "Port", "Tonnes"])
    for i in range(1, 1001):
        ws.append([f"C{i:04d}", "Zanzibar" if i == 900 else "Mombasa", i * 7])
    ports = wb.create_sheet("Ports")
    ports.append(["Port", "Country"])
    ports.append(["Mombasa", "Kenya"])
    ports.append(["Zanzibar", "Tanzania"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


FILES = {
    "/files/trade.xlsx": (XLSX, "attachment", _trade()),
    "/files/merge.xlsx": (XLSX, "attachment", hostile.xlsx_huge_merge()),
    "/files/export.csv": ("text/csv", "attachment", hostile.csv_padded()),
    "/files/tall.pdf": ("application/pdf", None, hostile.pdf_tall_page()),
}


@pytest.fixture(scope="module")
def site():
    with serve_files(INDEX, FILES) as url:
        yield url


def click(y: int) -> str:
    return f"Thought: open it\nAction: click(start_box='({int(120 * 0.75)},{int(y * 0.75)})')"


async def test_find_text_and_read_text_reach_every_sheet_and_row(session, site, tmp_path):
    async with harness_on(session, f"{site}/", config=make_config()) as h:
        h.keep_downloads(tmp_path / "downloads")
        await h.observe()
        res = await h.step(click(108))
        assert '"trade.xlsx" (Excel workbook, 2 sheets (Exports, Ports)' in res.feedback
        await h.observe()
        res = await h.step("Thought: t\nAction: find_text(text='Zanzibar')")
        # Neither match is on the first 200 rows of the sheet shown: both are named, and how to go there.
        assert "'Zanzibar' is not on the part of the document shown on this page" in res.feedback
        assert 'is in 2 rows; not shown here: sheet "Exports" row 901; sheet "Ports" row 3.' in res.feedback
        assert "To see them: open the sheet's tab ('Ports'), then type 'Zanzibar'" in res.feedback
        assert '"Filter rows containing" box' in res.feedback
        await h.observe()
        res = await h.step("Thought: t\nAction: read_text(near='C0900')")
        assert 'read from the document, sheet "Exports", row 901' in res.feedback
        assert (
            "C0900 | Zanzibar | 6300" in res.feedback
            and "(columns: Consignment | Port | Tonnes)" in res.feedback
        )
        await h.observe()
        res = await h.step("Thought: t\nAction: find_text(text='Mombasa')")
        assert "scrolled match 1 of" in res.feedback  # on the rows shown: the DOM search as before
        # and the matches beyond them: the rest of the sheet, and the other sheet
        assert (
            "'Mombasa' is in 1,000 rows (200 on this page); not shown here: sheet \"Exports\" rows 202,"
            in res.feedback
        )
        assert ' and 793 more; sheet "Ports" row 2.' in res.feedback


async def test_tiny_hostile_documents_are_refused_with_a_note_and_the_task_goes_on(session, site, tmp_path):
    records: list[dict] = []
    async with harness_on(session, f"{site}/", config=make_config()) as h:
        h.keep_downloads(tmp_path / "downloads")
        h.documents.on_record = records.append
        await h.observe()
        res = await h.step(click(208))
        assert '"merge.xlsx", which was kept but not opened as a document' in res.feedback
        assert "one merged range covers 9,999,800 cells (at most 100,000)" in res.feedback
        await h.observe()
        res = await h.step(click(308))
        assert "it would open as 8,000,400 cells (at most 3,000,000)" in res.feedback
        await h.observe()
        res = await h.step(click(408))
        assert '"tall.pdf" (PDF document, 1 page' in res.feedback
        width = await h.page.evaluate("document.querySelector('.page-box img').naturalWidth")
        assert 0 < width < 1650  # rendered, within the pixel bound
        await h.observe()
        res = await h.step("Thought: t\nAction: finished(content='done')")
        assert res.done and res.answer == "done"
    assert [r["opened"] for r in records] == [False, False, True]
    assert all(r["peak_mb"] < 400 for r in records)
