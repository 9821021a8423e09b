"""One document opened for the model: what it is, and its view's pages as HTML.

`open_document(data, name)` sniffs the bytes, converts them (PDF: `pdf.py`; spreadsheets and
CSV: `tables.py`; JSON, text) and returns a `Document` whose `html(query)` is the view the
harness serves: `?page=N` of a PDF scrolls to that page; `?sheet=I&page=N&q=TEXT` picks a
sheet, a page of rows and a row filter of a table. Refused (`limits.Refused`) when it is not a
document the harness opens, or past a bound.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from webfovea.documents import limits, render, tables
from webfovea.documents.pdf import PdfDoc
from webfovea.documents.sniff import LABELS, sniff


@dataclass
class Document:
    name: str
    kind: str
    size: int  # bytes of the file
    pdf: PdfDoc | None = None
    sheets: list[tables.Sheet] = field(default_factory=list)
    text: str = ""

    @property
    def label(self) -> str:
        return LABELS[self.kind]

    def extent(self) -> str:
        """Its pages or sheets, as the model is told: '12 pages', '3 sheets (Summary, ...)'."""
        if self.pdf is not None:
            shown = len(self.pdf.pages)
            more = f", the first {shown} shown" if shown < self.pdf.total else ""
            return f"{self.pdf.total} page{'s' if self.pdf.total != 1 else ''}{more}"
        if self.sheets and self.kind in ("csv", "tsv"):
            rows = max(0, len(self.sheets[0].rows) - 1)
            return f"{rows:,} rows of {self.sheets[0].width} columns"
        if self.sheets:
            names = ", ".join(s.name for s in self.sheets[:6]) + (", ..." if len(self.sheets) > 6 else "")
            return f"{len(self.sheets)} sheet{'s' if len(self.sheets) != 1 else ''} ({names})"
        return f"{self.text.count(chr(10)) + 1:,} lines"

    def scanned(self) -> list[int]:
        """1-based numbers of the pages that are images with no text layer."""
        if self.pdf is None:
            return []
        return [i + 1 for i, p in enumerate(self.pdf.pages) if p.scanned and not p.ocr]

    def ocr_done(self) -> list[int]:
        """1-based numbers of the scanned pages whose text layer came from OCR."""
        return [i + 1 for i, p in enumerate(self.pdf.pages) if p.ocr] if self.pdf is not None else []

    def html(self, query: dict[str, str] | None = None) -> str:
        q = query or {}
        if self.pdf is not None:
            return render.pdf_view(self, self.pdf)
        if self.sheets:
            return render.table_view(self, self.sheets, q)
        return render.text_view(self, self.text)


def open_document(data: bytes, name: str, *, ocr: bool = False) -> Document:
    kind = sniff(data, name)
    if kind is None:
        raise limits.NotADocument("it is not a PDF, spreadsheet, CSV, JSON or text file")
    doc = Document(name, kind, len(data))
    if kind == "pdf":
        doc.pdf = PdfDoc(data, ocr=ocr)
    elif kind == "xlsx":
        doc.sheets = tables.read_xlsx(data)
    elif kind == "ods":
        doc.sheets = tables.read_ods(data)
    elif kind == "xls":
        doc.sheets = tables.read_xls(data)
    elif kind in ("csv", "tsv"):
        doc.sheets = tables.read_delimited(data, kind, name)
    else:
        doc.text = _text(data, kind)
    return doc


def _text(data: bytes, kind: str) -> str:
    text = data.decode("utf-8-sig", errors="replace")
    if kind == "json":
        try:
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        except ValueError:
            pass
    if len(text) > limits.MAX_TEXT_CHARS:
        text = text[: limits.MAX_TEXT_CHARS] + f"\n[... cut at {limits.MAX_TEXT_CHARS:,} characters]"
    return text
