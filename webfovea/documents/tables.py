"""Spreadsheets and delimited text as sheets of strings: XLSX (openpyxl), ODS (its content.xml),
XLS (xlrd, when installed), CSV/TSV (the csv module).

A `Sheet` keeps the cells as the file has them, its merged ranges (shown with colspan/rowspan)
and which top rows are the header (frozen in the view).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
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


def _trim(rows: list[list[str]]) -> list[list[str]]:
    while rows and not any(rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, c in enumerate(r) if c), default=0) for r in rows), default=0)
    return [(r + [""] * width)[:width] for r in rows]


def _count(total: int, more: int) -> int:
    total += more
    if total > limits.MAX_CELLS:
        raise limits.Refused(f"it has more than {limits.MAX_CELLS:,} cells")
    return total


def read_xlsx(data: bytes) -> list[Sheet]:
    import openpyxl

    limits.check_zip(data)
    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    sheets: list[Sheet] = []
    cells = 0
    for ws in wb.worksheets:
        cells = _count(cells, (ws.max_row or 0) * (ws.max_column or 0))
        rows = [
            [cell_text(v) for v in row]
            for row in ws.iter_rows(
                min_row=1, min_col=1, max_row=ws.max_row, max_col=ws.max_column, values_only=True
            )
        ]
        merges = [
            (m.min_row - 1, m.min_col - 1, m.max_row - 1, m.max_col - 1) for m in ws.merged_cells.ranges
        ]
        sheet = Sheet(ws.title, _trim(rows), sorted(merges))
        find_header(sheet)
        sheets.append(sheet)
    return sheets


_T = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_MAX_REPEAT = 1000  # an ODS pads sheets with rows/cells "repeated" a million times


def read_ods(data: bytes) -> list[Sheet]:
    limits.check_zip(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = ET.fromstring(limits.read_member(z, "content.xml"))
    sheets: list[Sheet] = []
    cells = 0
    for table in root.iter(f"{_T}table"):
        rows: list[list[str]] = []
        merges: list[Merge] = []
        for tr in table.iter(f"{_T}table-row"):
            row: list[str] = []
            for tc in tr:
                if tc.tag not in (f"{_T}table-cell", f"{_T}covered-table-cell"):
                    continue
                text = "\n".join("".join(p.itertext()) for p in tc if p.tag.endswith("}p")).strip()
                span_c = int(tc.get(f"{_T}number-columns-spanned", "1"))
                span_r = int(tc.get(f"{_T}number-rows-spanned", "1"))
                if span_c > 1 or span_r > 1:
                    merges.append((len(rows), len(row), len(rows) + span_r - 1, len(row) + span_c - 1))
                row.extend([text] * min(int(tc.get(f"{_T}number-columns-repeated", "1")), _MAX_REPEAT))
            repeat = min(int(tr.get(f"{_T}number-rows-repeated", "1")), _MAX_REPEAT)
            cells = _count(cells, len(row) * repeat)
            rows.extend([list(row) for _ in range(repeat)])
        sheet = Sheet(table.get(f"{_T}name", f"Sheet{len(sheets) + 1}"), _trim(rows), merges)
        find_header(sheet)
        sheets.append(sheet)
    return sheets


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
        cells = _count(cells, sh.nrows * sh.ncols)
        rows = [[cell_text(sh.cell_value(r, c)) for c in range(sh.ncols)] for r in range(sh.nrows)]
        merges = [(r1, c1, r2 - 1, c2 - 1) for r1, r2, c1, c2 in getattr(sh, "merged_cells", [])]
        sheet = Sheet(sh.name, _trim(rows), merges)
        find_header(sheet)
        sheets.append(sheet)
    return sheets


def read_delimited(data: bytes, kind: str, name: str) -> list[Sheet]:
    text = _decode(data)
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(kind, text)))
    _count(0, len(rows) * max((len(r) for r in rows[:100]), default=0))
    sheet = Sheet(name, _trim(rows))
    sheet.header_rows = (0, 1) if rows else (0, 0)
    return [sheet]


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
