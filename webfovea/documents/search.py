"""A whole opened document searched for `find_text`/`read_text`: every page, every sheet and
every row, not only the page of 200 rows or the sheet the view shows.

The DOM search (browser/textsearch.py) sees what the view page holds; this sees the document
behind it and says where each match is (sheet and row, or page) and whether it is on the page
shown now, so the model is told how to get to the others (the sheet's tab, the row filter).
"""

from __future__ import annotations

from dataclasses import dataclass

from webfovea.documents.document import Document
from webfovea.documents.render import rows_shown

PER_SHEET = 6  # rows (or pages) named per sheet in a note; the rest are counted
MAX_SHEETS = 8


@dataclass
class Hit:
    sheet: str  # '' for a PDF
    where: str  # 'row 48' or 'page 7 of 12'
    text: str  # the row's cells joined by ' | ', or the page's line
    shown: bool  # on the view page the tab shows now
    columns: str = ""  # a table's header cells, for read_text


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def search(doc: Document, needle: str, query: dict[str, str]) -> list[Hit]:
    """Every row or PDF line holding `needle` (case-insensitive, spaces collapsed, as find_text)."""
    low = _norm(needle)
    if not low:
        return []
    hits: list[Hit] = []
    if doc.pdf is not None:
        total = doc.pdf.total
        for n, page in enumerate(doc.pdf.pages, 1):
            for line in page.lines:
                text = " | ".join(c.text for c in line)
                if low in _norm(" ".join(c.text for c in line)):
                    hits.append(Hit("", f"page {n} of {total}", text, True))
        return hits
    if not doc.sheets:
        return []
    current, _, _, rows = rows_shown(doc.sheets, query)
    shown = set(rows)
    for i, sheet in enumerate(doc.sheets):
        h0, h1 = sheet.header_rows
        columns = " | ".join(c for c in sheet.rows[h0] if c) if h1 > h0 else ""
        for r, row in enumerate(sheet.rows):
            if any(low in _norm(c) for c in row if c):
                on = i == current and (r < h1 or r in shown)
                hits.append(Hit(sheet.name, f"row {r + 1:,}", " | ".join(row).rstrip(" |"), on, columns))
    return hits


def places(doc: Document, hits: list[Hit]) -> str:
    """Where the hits are, a few per sheet: 'sheet "Exports" rows 202, 203 and 798 more;
    sheet "Ports" row 2', or 'page 7 of 12, page 9 of 12'."""
    groups: dict[str, list[str]] = {}
    for hit in hits:
        groups.setdefault(hit.sheet, []).append(hit.where.removeprefix("row "))
    parts = []
    for sheet, where in list(groups.items())[:MAX_SHEETS]:
        if doc.pdf is not None:
            where = list(dict.fromkeys(where))
        listed = ", ".join(where[:PER_SHEET]) + (
            f" and {len(where) - PER_SHEET:,} more" if len(where) > PER_SHEET else ""
        )
        if doc.pdf is not None:
            parts.append(listed)
        else:
            label = f'sheet "{sheet}" ' if len(doc.sheets) > 1 else ""
            parts.append(f"{label}row{'s' if len(where) > 1 else ''} {listed}")
    if len(groups) > MAX_SHEETS:
        parts.append(f"{len(groups) - MAX_SHEETS} more sheets")
    return "; ".join(parts)


def beyond_view(doc: Document, hits: list[Hit], needle: str, query: dict[str, str]) -> str:
    """The sentence on the matches the page shown does not hold: how many, where, and how to
    reach them (the sheet's tab, then the row filter); '' when the page holds them all."""
    away = [h for h in hits if not h.shown]
    if not away:
        return ""
    unit = "row" if doc.sheets else "line"
    here = len(hits) - len(away)
    count = f"{len(hits):,} {unit}{'s' if len(hits) != 1 else ''}" + (
        f" ({here:,} on this page)" if here else ""
    )
    text = f" In the whole document '{needle}' is in {count}; not shown here: {places(doc, away)}."
    if doc.sheets:
        current = doc.sheets[rows_shown(doc.sheets, query)[0]].name
        other = [s for s in dict.fromkeys(h.sheet for h in away) if s != current]
        tabs = f"open the sheet's tab ({', '.join(repr(s) for s in other[:4])}), then " if other else ""
        text += f" To see them: {tabs}type '{needle}' in the \"Filter rows containing\" box and press Enter."
    return text
