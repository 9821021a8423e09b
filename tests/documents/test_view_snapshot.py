"""The document view as snapshot text on real headless Chromium (structured and hybrid modes):
page markers and a page bar whose links have refs, sheet tabs with refs, merged header cells,
and a long CSV whose filter box and pager keep their refs inside the snapshot budget."""

from __future__ import annotations

import re

import pytest

from tests.documents import files
from tests.documents.serve import serve_files
from tests.support.shared_browser import harness_on
from webfovea.config import make_config
from webfovea.harness import Harness

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

CSV_ROWS = 2_000
INDEX = """<html><body><h1>Files</h1>
<a href="/files/note.pdf">Quarterly note</a> <a href="/files/prices.xlsx">Prices</a>
<a href="/files/export.csv">Export</a></body></html>"""


def _csv() -> bytes:
    lines = ["id,port,weight_kg,value_eur"]
    lines += [
        f"C{n:05d},{('Gdansk', 'Riga', 'Tallinn')[n % 3]},{100 + n},{n * 7}.50" for n in range(CSV_ROWS)
    ]
    return ("\n".join(lines) + "\n").encode()


FILES = {
    "/files/note.pdf": ("application/pdf", "attachment", files.pdf(4)),
    "/files/prices.xlsx": ("application/octet-stream", "attachment", files.xlsx_merged()),
    "/files/export.csv": ("text/csv", "attachment", _csv()),
}


@pytest.fixture(scope="module")
def site():
    with serve_files(INDEX, FILES) as url:
        yield url


def ref_of(snapshot: str, line: str) -> str:
    m = re.search(re.escape(line) + r".*?\[ref=((?:f\d+)?e\d+)\]", snapshot)
    assert m, f"no line {line!r} with a ref in:\n{snapshot[:3000]}"
    return m.group(1)


async def _open(h: Harness, link: str) -> str:
    obs = await h.observe()
    ref = ref_of(obs.snapshot, f'link "{link}"')
    res = await h.step(f"Thought: open it\nAction: click(ref='{ref}')")
    assert "it is now open in this tab" in res.feedback
    return res.feedback


def _within_budget(h: Harness, obs) -> None:
    info = obs.snapshot_info
    assert info is not None and info.error is None
    assert len(obs.snapshot.encode()) <= h.config.snapshot_budget_bytes


async def test_structured_pdf_view_has_page_markers_a_page_bar_and_its_text(session, site, tmp_path):
    async with harness_on(session, f"{site}/", config=make_config(observation="structured")) as h:
        h.keep_downloads(tmp_path)
        await _open(h, "Quarterly note")
        obs = await h.observe()
        snap = obs.snapshot
        assert h.model_input("t").images == []  # the model reads the document as text only
        _within_budget(h, obs)
        assert not obs.snapshot_info.truncated
        assert "PDF document · 4 pages" in snap
        markers = [snap.index(f"Page {n} of 4") for n in range(1, 5)]
        assert markers == sorted(markers)  # one marker per page, in order
        assert snap.index("Needle phrase on the last page") > markers[3]  # the text sits under its page
        assert re.search(r'row "Net revenue 1,234.5 1,100.2":\s+- cell "Net revenue" \[ref=', snap)
        assert 'navigation "Pages"' in snap
        page4 = ref_of(snap, 'link "4"')
        res = await h.step(f"Thought: go to page 4\nAction: click(ref='{page4}')")
        assert res.error is None
        top = await h.page.evaluate("document.querySelector('#page-4').getBoundingClientRect().top")
        assert 0 <= top < 120  # page 4 starts just under the sticky bar


async def test_hybrid_workbook_view_has_sheet_tabs_with_refs_and_merged_headers(session, site, tmp_path):
    async with harness_on(session, f"{site}/", config=make_config(observation="hybrid")) as h:
        h.keep_downloads(tmp_path)
        said = await _open(h, "Prices")
        assert "2 sheets (Prices, Wages)" in said
        obs = await h.observe()
        assert obs.image is not None and obs.snapshot  # hybrid: the screenshot and the text
        _within_budget(h, obs)
        snap = obs.snapshot
        assert 'navigation "Sheets"' in snap and ref_of(snap, 'link "Prices"')
        assert "paragraph [ref=" in snap and 'sheet "Prices" · page 1 of 1' in snap
        # The merged "Index" and "Change (%)" cells are one header each over two year columns.
        head = re.findall(r'columnheader "([^"]+)"', snap)
        assert head == ["Region", "Index", "Change (%)", "2023", "2024", "2023", "2024"]
        assert re.search(r'cell "North".*\n.*cell "101.5".*\n.*cell "104.2"', snap)
        wages = ref_of(snap, 'link "Wages"')
        res = await h.step(f"Thought: wages\nAction: click(ref='{wages}')")
        assert res.error is None
        snap = (await h.observe()).snapshot
        assert 'sheet "Wages"' in snap and 'columnheader "Sector"' in snap


async def test_structured_long_csv_keeps_filter_and_pager_refs_inside_the_budget(session, site, tmp_path):
    async with harness_on(session, f"{site}/", config=make_config(observation="structured")) as h:
        h.keep_downloads(tmp_path)
        said = await _open(h, "Export")
        assert f"{CSV_ROWS:,} rows of 4 columns" in said
        obs = await h.observe()
        _within_budget(h, obs)
        snap = obs.snapshot
        assert f"Rows 1–200 of {CSV_ROWS:,} · page 1 of 10" in snap
        box = ref_of(snap, 'searchbox "Filter rows containing"')
        assert ref_of(snap, 'link "Next rows"') and ref_of(snap, 'button "Filter"')
        await h.step(f"Thought: find it\nAction: fill(ref='{box}', content='C01234')")
        obs = await h.observe()
        go = ref_of(obs.snapshot, 'button "Filter"')
        await h.step(f"Thought: filter\nAction: click(ref='{go}')")
        obs = await h.observe()
        _within_budget(h, obs)
        assert 'Rows matching "C01234" 1–1 of 1' in obs.snapshot
        assert re.search(r'rowheader "1236".*\n.*cell "C01234".*\n.*cell "Riga"', obs.snapshot)
