"""Tiny hostile documents converted in the sandboxed child: each ends
in seconds, with a refusal the model can read or a bounded view, and the child's peak memory
stays far below what the same file once took (1.2 GB, 915 MB, >3 GB, minutes of CPU)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.documents import files
from tests.documents import hostile_files as hostile
from webfovea.documents import limits, sandbox
from webfovea.documents.pdf import PAGE_CSS_WIDTH, RENDER_SCALE

pytestmark = pytest.mark.timeout(120)
PEAK_MB = 400  # a child converting one of these stays under it


async def _refused(data: bytes, name: str) -> limits.Refused:
    t0 = time.monotonic()
    with pytest.raises(limits.Refused) as caught:
        await sandbox.convert(data, name)
    assert time.monotonic() - t0 < 10
    assert caught.value.peak_mb is not None and caught.value.peak_mb < PEAK_MB
    return caught.value


async def test_a_1kb_ods_spanning_a_million_rows_is_refused():
    data = hostile.ods_huge_span()
    assert len(data) < 1024
    e = await _refused(data, "sheet.ods")
    assert "one merged range covers 50,000,000,000 cells (at most 100,000)" in str(e)


async def test_an_ods_of_repeated_cells_is_refused_before_they_are_made():
    e = await _refused(hostile.ods_repeated(), "sheet.ods")
    assert "cells (at most 3,000,000)" in str(e)


async def test_a_5kb_xlsx_with_one_huge_merged_range_is_refused_before_openpyxl_loads_it():
    data = hostile.xlsx_huge_merge()
    assert len(data) < 6 * 1024
    e = await _refused(data, "prices.xlsx")
    assert "one merged range covers 9,999,800 cells" in str(e)


async def test_an_80kb_csv_that_pads_to_8_million_cells_is_refused():
    data = hostile.csv_padded()
    assert len(data) < 81 * 1024
    e = await _refused(data, "export.csv")
    assert "it would open as 8,000,400 cells (at most 3,000,000)" in str(e)


async def test_a_331_byte_pdf_with_a_very_tall_page_renders_within_the_pixel_bound():
    data = hostile.pdf_tall_page()
    assert len(data) < 400
    t0 = time.monotonic()
    doc, peak = await sandbox.convert(data, "tall.pdf")
    page = doc.pdf.pages[0]  # type: ignore[union-attr]
    assert (
        page.width < PAGE_CSS_WIDTH and page.width * page.height * RENDER_SCALE**2 <= limits.MAX_PAGE_PIXELS
    )
    ran = await sandbox.run({"op": "render", "pages": [0]}, data)
    assert ran.blobs[0].startswith(b"\x89PNG") and ran.peak_mb < PEAK_MB
    assert time.monotonic() - t0 < 15 and peak < PEAK_MB
    assert "Shown smaller than the other pages" in doc.html()


async def test_a_pdf_line_of_60000_characters_is_grouped_in_linear_time():
    t0 = time.monotonic()
    doc, _ = await sandbox.convert(hostile.pdf_long_line(), "line.pdf")
    assert time.monotonic() - t0 < 10
    line = doc.pdf.pages[0].lines[0]  # type: ignore[union-attr]
    assert sum(len(c.text) for c in line) == 60_000


def _workers() -> list[int]:
    """Live children of this process that are document workers."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if f"\nPPid:\t{os.getpid()}\n" in status and b"webfovea.documents.worker" in cmd:
            out.append(int(pid))
    return out


async def test_a_job_past_its_deadline_is_killed_not_abandoned():
    rows = b"".join(b"R%d,%d,some text\n" % (i, i) for i in range(300_000))
    t0 = time.monotonic()
    with pytest.raises(limits.Refused, match=r"opening it took longer than 0\.3 s"):
        await sandbox.convert(b"id,value,note\n" + rows, "big.csv", timeout=0.3)
    assert time.monotonic() - t0 < 3
    assert _workers() == []  # the child is gone, not still converting


async def test_a_child_past_its_memory_limit_is_refused_and_says_so(monkeypatch):
    monkeypatch.setattr(sandbox, "MEMORY_MB", 120)
    rows = b"".join(b"R%d,%d,%s\n" % (i, i, b"t" * 40) for i in range(400_000))
    with pytest.raises(limits.Refused, match="needed more than 120 MB of memory"):
        await sandbox.convert(b"id,value,note\n" + rows, "big.csv")


async def test_an_ordinary_document_comes_back_whole():
    doc, peak = await sandbox.convert(files.xlsx_merged(), "prices.xlsx")
    assert doc.extent() == "2 sheets (Prices, Wages)" and doc.sheets[0].merges and peak < PEAK_MB
    pdf, _ = await sandbox.convert(files.pdf(3), "note.pdf")
    assert "Needle phrase on the last page" in pdf.pdf.pages[2].text  # type: ignore[union-attr]
    pngs = await sandbox.render(files.pdf(3), [0, 2])
    assert sorted(pngs) == [0, 2] and all(p.startswith(b"\x89PNG") for p in pngs.values())


async def test_an_ods_padded_as_libreoffice_saves_it_opens_as_its_filled_cells():
    doc, peak = await sandbox.convert(hostile.ods_padded(), "sheet.ods")
    assert doc.sheets[0].rows == [["Region", "Value"], ["North", "7"]] and peak < PEAK_MB


def test_a_page_of_rows_stops_at_the_html_bound_and_says_so():
    from webfovea.documents.document import open_document

    # 3,000 cells of '&&&&&&' a row (21 KB): each escapes to 30 bytes in its own <td>, so 200
    # rows would be 30 MB of HTML; 603,000 cells are under the cell bound.
    row = ",".join(["&&&&&&"] * 3000)
    data = ("\n".join([row] * 201) + "\n").encode()
    html = open_document(data, "wide.csv").html()
    assert len(html) < limits.MAX_VIEW_BYTES + 1024 * 1024
    assert 'id="doc-cut"' in html and "filter the rows to see the others" in html


async def test_the_childs_peak_is_its_own_not_its_large_parents() -> None:
    # Linux keeps ru_maxrss across exec: a child of a 400 MB runner worker reported 443 MB for an
    # ordinary workbook. The child's own high-water mark is what the bound is about.
    ballast = bytearray(500 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    e = await _refused(hostile.ods_repeated(), "sheet.ods")
    assert e.peak_mb is not None and e.peak_mb < 200 and len(ballast) > 0
