"""Spreadsheets and delimited text as sheets of strings: XLSX (openpyxl), ODS (its content.xml),
XLS (xlrd, when installed), CSV/TSV (the csv module).

A `Sheet` keeps the cells as the file has them, its merged ranges (shown with colspan/rowspan)
and which top rows are the header (frozen in the view).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from webfovea.documents import limits
from webfovea.documents.sniff import delimiter

Merge = tuple[int, int, int, int]  # first row, first column, last row, last column (0-based, inclusive)


@dataclass
class Sheet:
    name: str
    rows: list[list[str]]
    merges: list[Merge] = field(default_factory=list)
    header_rows: tuple[int, int] = (0, 0)  # [start, end) of the header among `rows`

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)


def cell_text(v: Any) -> str:
    """A cell value as a spreadsheet shows it in General format."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else f"{v:.10g}"
    if isinstance(v, dt.datetime):
        return v.date().isoformat() if v.time() == dt.time() else v.isoformat(sep=" ")
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v).strip()


def find_header(sheet: Sheet) -> None:
    """The header: the first row with two or more filled cells, plus the rows its merged cells
    span down, plus the row below when it has merged cells across columns (a grouped header)."""
    start = next((i for i, r in enumerate(sheet.rows[:50]) if sum(1 for c in r if c) >= 2), None)
    if start is None:
        return
    end = start + 1
    for r1, c1, r2, c2 in sheet.merges:
        if r1 == start:
            end = max(end, r2 + 1)
            if c2 > c1 and r2 == r1:
                end = max(end, start + 2)
    sheet.header_rows = (start, min(end, start + 4, len(sheet.rows)))


def _trim(rows: list[list[str]], before: int = 0) -> list[list[str]]:
    """Trailing empty rows and columns dropped, every row padded to the width: refused first when
    the padded sheet would pass the cell bound (`before`: cells of the sheets read so far)."""
    while rows and not any(rows[-1]):
        rows.pop()
    # Linear in the rows, not the cells: most rows end in a filled cell (a CSV of 100k rows spent
    # half its open time in a scan of every cell here; benchmarks/scaling csv).
    width = 0
    for r in rows:
        n = len(r)
        while n and not r[n - 1]:
            n -= 1
        width = max(width, n)
    limits.cells_bound(before + len(rows) * width)
    return [r if len(r) == width else (r + [""] * width)[:width] for r in rows]


def _sheet(name: str, rows: list[list[str]], merges: list[Merge], before: int) -> Sheet:
    """A sheet of padded rows whose merged ranges are bounded (as declared) and clipped to it."""
    sheet = Sheet(name, _trim(rows, before))
    height, width = len(sheet.rows), sheet.width
    kept = []
    for r1, c1, r2, c2 in merges:
        _merge_bound(r1, c1, r2, c2)  # as the file declares it: every format is refused alike
        r2, c2 = min(r2, height - 1), min(c2, width - 1)
        if r1 > r2 or c1 > c2 or (r1 == r2 and c1 == c2):
            continue
        kept.append((r1, c1, r2, c2))
    sheet.merges = sorted(kept)
    find_header(sheet)
    return sheet


def _merge_bound(r1: int, c1: int, r2: int, c2: int) -> None:
    covered = (r2 - r1 + 1) * (c2 - c1 + 1)
    if covered > limits.MAX_MERGE_CELLS:
        raise limits.Refused(
            f"one merged range covers {covered:,} cells (at most {limits.MAX_MERGE_CELLS:,})"
        )


def read_xlsx(data: bytes) -> list[Sheet]:
    limits.check_zip(data)
    _xlsx_merges_bound(data)
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    sheets: list[Sheet] = []
    cells = 0
    for ws in wb.worksheets:
        limits.cells_bound(cells + (ws.max_row or 0) * (ws.max_column or 0))
        rows = [
            [cell_text(v) for v in row]
            for row in ws.iter_rows(
                min_row=1, min_col=1, max_row=ws.max_row, max_col=ws.max_column, values_only=True
            )
        ]
        merges = [
            (m.min_row - 1, m.min_col - 1, m.max_row - 1, m.max_col - 1) for m in ws.merged_cells.ranges
        ]
        sheets.append(_sheet(ws.title, rows, merges, cells))
        cells += len(sheets[-1].rows) * sheets[-1].width
    return sheets


_MERGE_REF = re.compile(
    rb'<(?:\w+:)?mergeCell\b[^>]*\bref="\$?([A-Z]{1,3})\$?(\d{1,7}):\$?([A-Z]{1,3})\$?(\d{1,7})"'
)


def _xlsx_merges_bound(data: bytes) -> None:
    """openpyxl makes an object for every cell a merged range covers while it loads: a range
    over a million cells is refused from the sheet's XML before openpyxl reads it."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                continue
            for m in _MERGE_REF.finditer(limits.read_member(z, name)):
                c1, r1, c2, r2 = _col(m[1]), int(m[2]), _col(m[3]), int(m[4])
                _merge_bound(min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def _col(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


_T = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def read_ods(data: bytes) -> list[Sheet]:
    limits.check_zip(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = ET.fromstring(limits.read_member(z, "content.xml"))
    sheets: list[Sheet] = []
    cells = 0
    for table in root.iter(f"{_T}table"):
        rows, merges = _ods_rows(table, cells)
        sheets.append(_sheet(table.get(f"{_T}name", f"Sheet{len(sheets) + 1}"), rows, merges, cells))
        cells += len(sheets[-1].rows) * sheets[-1].width
    return sheets


def _ods_rows(table: ET.Element, before: int) -> tuple[list[list[str]], list[Merge]]:
    """The rows of one ODS table. An ODS pads a sheet with empty cells and rows "repeated" a
    million times: empty repeats are made only when filled content follows them, and every
    cell made counts against the bound as it is made (rows times the widest row so far)."""
    rows: list[list[str]] = []
    merges: list[Merge] = []
    width, empty_rows = 0, 0
    for tr in table.iter(f"{_T}table-row"):
        row: list[str] = []
        empty_cells = 0
        for tc in tr:
            if tc.tag not in (f"{_T}table-cell", f"{_T}covered-table-cell"):
                continue
            text = "\n".join("".join(p.itertext()) for p in tc if p.tag.endswith("}p")).strip()
            repeat = _count_attr(tc, "number-columns-repeated")
            span_c, span_r = _count_attr(tc, "number-columns-spanned"), _count_attr(tc, "number-rows-spanned")
            if not text and span_c == span_r == 1:
                empty_cells += repeat
                continue
            at = len(rows) + empty_rows
            limits.cells_bound(before + (at + 1) * max(width, len(row) + empty_cells + repeat))
            row.extend([""] * empty_cells + [text] * repeat)
            empty_cells = 0
            if span_c > 1 or span_r > 1:
                merges.append((at, len(row) - 1, at + span_r - 1, len(row) - 1 + span_c - 1))
        repeat = _count_attr(tr, "number-rows-repeated")
        if not row:
            empty_rows += repeat
            continue
        width = max(width, len(row))
        limits.cells_bound(before + (len(rows) + empty_rows + repeat) * width)
        rows.extend([[] for _ in range(empty_rows)])
        rows.extend([list(row) for _ in range(repeat)])
        empty_rows = 0
    return rows, merges


def _count_attr(element: ET.Element, name: str) -> int:
    try:
        return max(1, int(element.get(f"{_T}{name}", "1")))
    except ValueError:
        return 1


def read_xls(data: bytes) -> list[Sheet]:
    try:
        import xlrd
    except ImportError:
        raise limits.Refused(
            "legacy Excel (.xls) workbooks open only with the optional xlrd package"
        ) from None
    book = xlrd.open_workbook(file_contents=data, formatting_info=False)
    sheets: list[Sheet] = []
    cells = 0
    for sh in book.sheets():
        limits.cells_bound(cells + sh.nrows * sh.ncols)
        rows = [[cell_text(sh.cell_value(r, c)) for c in range(sh.ncols)] for r in range(sh.nrows)]
        merges = [(r1, c1, r2 - 1, c2 - 1) for r1, r2, c1, c2 in getattr(sh, "merged_cells", [])]
        sheets.append(_sheet(sh.name, rows, merges, cells))
        cells += len(sheets[-1].rows) * sheets[-1].width
    return sheets


def read_delimited(data: bytes, kind: str, name: str) -> list[Sheet]:
    text = _decode(data)
    rows: list[list[str]] = []
    width = 0
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(kind, text)):
        width = max(width, len(row))
        rows.append(row)
        if len(rows) * width > limits.MAX_CELLS:  # the rows so far, padded to the widest
            limits.cells_bound(len(rows) * width)
    sheet = Sheet(name, _trim(rows))
    sheet.header_rows = (0, 1) if rows else (0, 0)
    return [sheet]


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
