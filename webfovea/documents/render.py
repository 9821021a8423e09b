"""The document view's HTML: plain pages with no script, so every action works on them as on
any web page (the sticky header, row numbers and sheet tabs are CSS and links).

- PDF: per page a marker "Page N of M", the page image and over it a transparent text layer
  positioned where PDFium put each run of text; a line of several runs (a table row) is a
  `row` of `cell`s, so `read_text` reads it as ' | '-separated cells. Each page carries
  `data-page-label`, which `find_text` names in its note.
- Tables: sheet tabs (links), a row filter (a GET form), rows in pages of `ROWS_PER_PAGE`, a
  frozen header with merged cells as colspan/rowspan, the file's row numbers.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from webfovea.documents import limits
from webfovea.documents.pdf import PAGE_CSS_WIDTH

if TYPE_CHECKING:
    from webfovea.documents.document import Document
    from webfovea.documents.pdf import Cell, PdfDoc, PdfPage
    from webfovea.documents.tables import Sheet

ROWS_PER_PAGE = 200
PAGE_LINKS = 40  # at most this many page links in a PDF's bar (every k-th page past it)

_CSS = """
body.wf-doc{margin:0;background:#525659;font:15px/1.4 system-ui,sans-serif;color:#111}
#doc-bar{position:sticky;top:0;z-index:5;background:#323639;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
#doc-bar a{color:#9cf}
#doc-pages a{margin-right:6px}
#doc-view{padding:16px}
.doc-page{margin:0 auto 24px;width:max-content;scroll-margin-top:var(--bar,44px)}
.page-marker{color:#fff;font-size:14px;margin:4px 0}
.page-note{color:#ffd54f;font-size:14px;margin:4px 0}
.page-box{position:relative;background:#fff;box-shadow:0 1px 4px #0008}
.page-box img{display:block}
.tl{position:absolute;inset:0;overflow:hidden}
.tl span{position:absolute;white-space:pre;color:transparent;line-height:1;font-family:sans-serif;overflow:hidden}
.tl span::highlight(webfovea-find){color:transparent;background-color:#ffeb3b88}
.tl.ocr span{outline:1px dotted #09f6}
.sheet-wrap{background:#fff;padding:8px 16px;min-height:80vh}
.sheet-tabs a{display:inline-block;padding:4px 10px;margin-right:4px;border:1px solid #999;border-bottom:0;border-radius:4px 4px 0 0;background:#eee;color:#111;text-decoration:none}
.sheet-tabs a[aria-current]{background:#fff;font-weight:600}
table.sheet{border-collapse:collapse;font-size:14px}
table.sheet th,table.sheet td{border:1px solid #ccc;padding:2px 6px;white-space:nowrap}
table.sheet thead th{position:sticky;top:var(--bar,44px);background:#e8eef7;z-index:2}
table.sheet th.rn{background:#f3f3f3;color:#555;font-weight:400;text-align:right}
.pager{margin:8px 0}.pager a{margin-right:12px}
.caption{margin:6px 0;font-weight:600}
pre#doc-text{background:#fff;margin:0;padding:16px;white-space:pre-wrap;font:14px/1.45 monospace}
"""


def size_text(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{max(1, round(n / 1024))} KB"


def _page(doc: Document, kind: str, body: str, nav: str = "") -> str:
    bar = (
        f'<header id="doc-bar"><b id="doc-name">{escape(doc.name)}</b>'
        f'<span id="doc-kind">{escape(doc.label)} · {escape(doc.extent())} · {size_text(doc.size)}</span>{nav}</header>'
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(doc.name)}</title>'
        f'<style>{_CSS}</style></head><body class="wf-doc">{bar}'
        f'<main id="doc-view" data-kind="{kind}">{body}</main></body></html>'
    )


def pdf_view(doc: Document, pdf: PdfDoc) -> str:
    total = pdf.total
    parts: list[str] = []
    size = 0
    for i, p in enumerate(pdf.pages):
        parts.append(_pdf_page(i + 1, total, p))
        size += len(parts[-1])
        if size > limits.MAX_VIEW_BYTES and i + 1 < len(pdf.pages):
            parts.append(
                f'<p class="page-note">Pages {i + 2} to {total} are not shown: '
                f"the view would pass {limits.MAX_VIEW_BYTES // 2**20} MB of text layers.</p>"
            )
            return _page(doc, "pdf", "".join(parts), _page_links(i + 1))
    if len(pdf.pages) < total:
        parts.append(
            f'<p class="page-note">Pages {len(pdf.pages) + 1} to {total} are not shown (too many pages).</p>'
        )
    return _page(doc, "pdf", "".join(parts), _page_links(len(pdf.pages)))


def _page_links(shown: int) -> str:
    """Links to the pages (fragments, no script), so a structured model can go to page 7 by ref."""
    if shown < 2:
        return ""
    step = -(-shown // PAGE_LINKS)
    pages = sorted({*range(1, shown + 1, step), shown})
    links = "".join(f'<a href="#page-{n}">{n}</a>' for n in pages)
    return f'<nav id="doc-pages" aria-label="Pages">Pages: {links}</nav>'


def _pdf_page(n: int, total: int, page: PdfPage) -> str:
    label = f"page {n} of {total}"
    w, h = round(page.width), round(page.height)
    note = ""
    if page.width < PAGE_CSS_WIDTH - 1:
        note = '<div class="page-note">Shown smaller than the other pages: its shape is too tall to show at full width.</div>'
    if page.scanned and not page.ocr:
        note = '<div class="page-note">Scanned page: no text layer (read it from the image).</div>'
    elif page.ocr:
        note = '<div class="page-note">Scanned page: its text layer was recognised by OCR and may contain errors.</div>'
    lines = "".join(_line(i, line) for i, line in enumerate(page.lines))
    tl = f'<div class="tl{" ocr" if page.ocr else ""}">{lines}</div>'
    return (
        f'<section class="doc-page" id="page-{n}" data-page="{n}" data-page-label="{label}">'
        f'<div class="page-marker">Page {n} of {total}</div>{note}'
        f'<div class="page-box" style="width:{w}px;height:{h}px">'
        f'<img src="page-{n}.png" width="{w}" height="{h}" alt="Page {n} of {total}" loading="lazy">{tl}</div></section>'
    )


def _line(index: int, cells: list[Cell]) -> str:
    row = len(cells) > 1
    spans = "".join(
        f'<span{" role=cell" if row else ""} style="left:{c.x:.1f}px;top:{c.y:.1f}px;width:{c.w + 2:.1f}px;'
        f'height:{c.h:.1f}px;font-size:{c.h:.1f}px">{escape(c.text)}</span>'
        for c in cells
    )
    return f'<div class="ln" data-ln="{index}"{" role=row" if row else ""}>{spans}</div>'


def table_view(doc: Document, sheets: list[Sheet], q: dict[str, str]) -> str:
    index, body, page, shown = rows_shown(sheets, q)
    sheet = sheets[index]
    needle = (q.get("q") or "").strip()
    h0, h1 = sheet.header_rows
    pages = max(1, -(-len(body) // ROWS_PER_PAGE))
    parts = []
    if len(sheets) > 1:
        tabs = "".join(
            f'<a class="sheet-tab" href="?{urlencode({"sheet": i})}"'
            f"{' aria-current=page' if i == index else ''}>{escape(s.name)}</a>"
            for i, s in enumerate(sheets)
        )
        parts.append(f'<nav class="sheet-tabs" id="doc-sheets" aria-label="Sheets">{tabs}</nav>')
    parts.append(_filter_form(index, needle))
    what = f'Rows matching "{escape(needle)}"' if needle else "Rows"
    first = (page - 1) * ROWS_PER_PAGE + 1 if shown else 0
    sheet_name = f' · sheet "{escape(sheet.name)}"' if len(sheets) > 1 else ""
    parts.append(
        f'<p id="doc-range">{what} {first:,}–{first + len(shown) - 1 if shown else 0:,} of {len(body):,}'
        f"{sheet_name} · page {page} of {pages}</p>"
    )
    parts.append(_pager(index, needle, page, pages))
    parts += [
        f'<div class="caption">{escape(" ".join(c for c in sheet.rows[r] if c))}</div>' for r in range(h0)
    ]
    head, _ = _rows(sheet, list(range(h0, h1)), "th", merge=True, budget=limits.MAX_VIEW_BYTES // 4)
    rows, cut = _rows(sheet, shown, "td", merge=not needle, budget=limits.MAX_VIEW_BYTES - len(head))
    parts.append(
        f'<table class="sheet" id="doc-table"><thead id="doc-head">{head}</thead><tbody id="doc-rows">{rows}</tbody></table>'
    )
    if cut:
        parts.append(
            f'<p class="page-note" id="doc-cut">The rows are cut at {limits.MAX_VIEW_BYTES // 2**20} MB of '
            "this page: filter the rows to see the others.</p>"
        )
    if pages > 1:
        parts.append(_pager(index, needle, page, pages))
    return _page(doc, "table", f'<div class="sheet-wrap">{"".join(parts)}</div>')


def rows_shown(sheets: list[Sheet], q: dict[str, str]) -> tuple[int, list[int], int, list[int]]:
    """For the view query `q`: the sheet shown, its body rows (filtered), the page of rows and
    the rows on it (0-based indices into the sheet's rows)."""
    index = _int(q.get("sheet"), 0, len(sheets) - 1)
    sheet = sheets[index]
    needle = (q.get("q") or "").strip()
    body = list(range(sheet.header_rows[1], len(sheet.rows)))
    if needle:
        low = needle.lower()
        body = [r for r in body if any(low in c.lower() for c in sheet.rows[r])]
    page = _int(q.get("page"), 1, max(1, -(-len(body) // ROWS_PER_PAGE)))
    return index, body, page, body[(page - 1) * ROWS_PER_PAGE : page * ROWS_PER_PAGE]


def _filter_form(sheet: int, needle: str) -> str:
    return (
        '<form id="doc-filter-form" method="get" role="search">'
        f'<input type="hidden" name="sheet" value="{sheet}">'
        '<label for="doc-filter">Filter rows containing </label>'
        f'<input id="doc-filter" name="q" type="search" value="{escape(needle)}" size="30">'
        ' <button id="doc-filter-go" type="submit">Filter</button></form>'
    )


def _pager(sheet: int, needle: str, page: int, pages: int) -> str:
    def link(p: int, text: str, ident: str) -> str:
        args = {"sheet": sheet, "page": p, **({"q": needle} if needle else {})}
        return f'<a class="{ident}" href="?{urlencode(args)}">{text}</a>'

    out = []
    if page > 1:
        out.append(link(page - 1, "Previous rows", "doc-prev"))
    if page < pages:
        out.append(link(page + 1, "Next rows", "doc-next"))
    return f'<nav class="pager">{"".join(out)}</nav>' if out else ""


def _rows(sheet: Sheet, indices: list[int], tag: str, *, merge: bool, budget: int) -> tuple[str, bool]:
    """The rows `indices` (contiguous when `merge`): merged ranges clipped to what is shown; at
    most `budget` characters of HTML (True: cut there)."""
    if not indices:
        return "", False
    width = sheet.width
    anchors: dict[tuple[int, int], tuple[int, int, str]] = {}
    covered: dict[int, dict[int, int]] = {}  # row -> first column -> last column a merge covers
    if merge:
        lo, hi = indices[0], indices[-1]
        for r1, c1, r2, c2 in sheet.merges:
            if r2 < lo or r1 > hi:
                continue
            top, bottom = max(r1, lo), min(r2, hi)
            anchors[(top, c1)] = (bottom - top + 1, c2 - c1 + 1, sheet.rows[r1][c1] if c1 < width else "")
            for r in range(top, bottom + 1):
                ends = covered.setdefault(r, {})
                ends[c1] = max(ends.get(c1, c1), c2)
    out: list[str] = []
    size = 0
    for r in indices:
        cells = [f'<th class="rn" scope="row">{r + 1}</th>']
        row = sheet.rows[r]
        ends = covered.get(r, {})
        c = 0
        while c < width and size < budget:
            if (r, c) in anchors:
                rs, cs, text = anchors[(r, c)]
                span = (f' rowspan="{rs}"' if rs > 1 else "") + (f' colspan="{cs}"' if cs > 1 else "")
                cells.append(f'<{tag} class="c{c}"{span}>{escape(text)}</{tag}>')
                c += cs
            elif c in ends:
                c = ends[c] + 1
                continue
            else:
                cells.append(f'<{tag} class="c{c}">{escape(row[c])}</{tag}>')
                c += 1
            size += len(cells[-1])
        out.append(f'<tr data-row="{r + 1}">{"".join(cells)}</tr>')
        if size >= budget:
            return "".join(out), True
    return "".join(out), False


def text_view(doc: Document, text: str) -> str:
    return _page(doc, doc.kind, f'<pre id="doc-text">{escape(text)}</pre>')


def _int(raw: str | None, lo: int, hi: int) -> int:
    try:
        return min(max(int(raw or lo), lo), hi)
    except ValueError:
        return lo
