"""A converted `Document` as plain JSON data and back, for the sandboxed child's reply.

The child parses untrusted files, so the parent never unpickles what it sends: the reply is
JSON, read back here into the dataclasses with every field coerced to its type, so a child a
file took over can send a wrong view at worst, never code.
"""

from __future__ import annotations

from typing import Any

from webfovea.documents import limits
from webfovea.documents.document import Document
from webfovea.documents.pdf import Cell, PdfDoc, PdfPage
from webfovea.documents.tables import Sheet


def dump(doc: Document) -> dict[str, Any]:
    out: dict[str, Any] = {"name": doc.name, "kind": doc.kind, "size": doc.size, "text": doc.text}
    if doc.pdf is not None:
        out["pdf"] = {
            "total": doc.pdf.total,
            "pages": [
                {
                    "w": p.width,
                    "h": p.height,
                    "scanned": p.scanned,
                    "ocr": p.ocr,
                    "lines": [[[c.x, c.y, c.w, c.h, c.text] for c in line] for line in p.lines],
                }
                for p in doc.pdf.pages
            ],
        }
    out["sheets"] = [
        {"name": s.name, "rows": s.rows, "merges": s.merges, "header": list(s.header_rows)}
        for s in doc.sheets
    ]
    return out


def load(obj: Any, data: bytes) -> Document:
    """The document `obj` describes (`data`: the file's bytes, kept to render PDF pages)."""
    try:
        doc = Document(str(obj["name"]), _kind(obj["kind"]), int(obj["size"]), text=str(obj.get("text", "")))
        if obj.get("pdf") is not None:
            pdf = obj["pdf"]
            pages = [_page(p) for p in pdf["pages"][: limits.MAX_PDF_PAGES]]
            doc.pdf = PdfDoc.restore(data, int(pdf["total"]), pages)
        doc.sheets = [_sheet(s) for s in obj.get("sheets", [])]
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise limits.Refused(f"its conversion sent a malformed reply ({type(e).__name__})") from None
    return doc


def _kind(raw: Any) -> str:
    from webfovea.documents.sniff import KINDS

    kind = str(raw)
    if kind not in KINDS:
        raise ValueError(kind)
    return kind


def _page(p: Any) -> PdfPage:
    page = PdfPage(float(p["w"]), float(p["h"]), scanned=bool(p["scanned"]), ocr=bool(p["ocr"]))
    page.lines = [
        [Cell(float(x), float(y), float(w), float(h), str(t)) for x, y, w, h, t in line]
        for line in p["lines"]
    ]
    return page


def _sheet(s: Any) -> Sheet:
    """A sheet as the view needs it: rows of one width, merges and header inside them."""
    rows = [[str(c) for c in row] for row in s["rows"]]
    width = max((len(r) for r in rows), default=0)
    rows = [r + [""] * (width - len(r)) for r in rows]
    merges = [
        (r1, c1, r2, c2)
        for r1, c1, r2, c2 in ((int(a), int(b), int(c), int(d)) for a, b, c, d in s["merges"])
        if 0 <= r1 <= r2 < len(rows) and 0 <= c1 <= c2 < width
    ]
    h0, h1 = sorted(min(max(int(v), 0), len(rows)) for v in s["header"])
    return Sheet(str(s["name"]), rows, merges, (h0, h1))
