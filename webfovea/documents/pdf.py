"""PDF pages as images with a text layer, through pypdfium2 (PDFium, Chromium's own PDF engine).

PDFium both renders a page and gives every character's box, so one maintained library yields
the pixels the model sees and the text `find_text`/`read_text` search, in the same coordinates;
pdfplumber would add a second engine (pdfminer) for text whose layout can drift from the
rendering. Forms and JavaScript are never initialised (`init_forms` is not called): a PDF's
scripts cannot run, rendering is all that happens. PDFium is not thread-safe: one lock.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from webfovea.documents import limits

_LOCK = threading.Lock()
PAGE_CSS_WIDTH = 1100  # CSS px a page is shown at (0.75 of it in a 1440-wide screenshot of 1920)
RENDER_SCALE = 1.5  # bitmap px per CSS px: `zoom` re-renders at full resolution and stays sharp


@dataclass
class Cell:
    x: float  # CSS px within the page
    y: float
    w: float
    h: float
    text: str


@dataclass
class PdfPage:
    width: float  # CSS px
    height: float
    lines: list[list[Cell]] = field(default_factory=list)
    scanned: bool = False  # images and (almost) no text: the text layer is empty
    ocr: bool = False  # its text layer came from OCR

    @property
    def text(self) -> str:
        return "\n".join(" ".join(c.text for c in line) for line in self.lines)


def page_scale(w_pt: float, h_pt: float) -> float:
    """CSS px per point of a page: 1,100 CSS px wide, smaller when its rendering would pass
    MAX_PAGE_PIXELS (a page a few points wide and metres tall is a hostile file's trick)."""
    w_pt, h_pt = max(w_pt, 1.0), max(h_pt, 1.0)
    fit = math.sqrt(limits.MAX_PAGE_PIXELS / (w_pt * h_pt)) / RENDER_SCALE
    return min(PAGE_CSS_WIDTH / w_pt, fit)


class PdfDoc:
    """An open PDF: its pages' text layers read at once, bitmaps rendered when asked.

    The harness reads and renders in a sandboxed child process (`sandbox.py`); there the text
    layers come back as data (`restore`) and pages are rendered by `render_pages` in another
    child. In this process (tests, the suite's builder) `png` opens the file itself."""

    def __init__(self, data: bytes, *, ocr: bool = False) -> None:
        self.data = data
        self._doc = _open(data)
        self.total = len(self._doc)
        if self.total == 0:
            raise limits.Refused("the PDF has no pages")
        self.pages: list[PdfPage] = []
        chars = 0
        for i in range(min(self.total, limits.MAX_PDF_PAGES)):
            self.pages.append(self._read(i))
            chars += sum(len(c.text) for line in self.pages[-1].lines for c in line)
            if chars > limits.MAX_PDF_CHARS:
                raise limits.Refused(f"its text layer passes {limits.MAX_PDF_CHARS:,} characters")
        self._png: dict[int, bytes] = {}
        if ocr:
            self.apply_ocr({i: self.png(i) for i in self.to_ocr()})

    @classmethod
    def restore(cls, data: bytes, total: int, pages: list[PdfPage]) -> PdfDoc:
        """A PDF read elsewhere: its text layers given, no PDFium handle in this process."""
        doc = cls.__new__(cls)
        doc.data, doc._doc, doc.total, doc.pages, doc._png = data, None, total, pages, {}
        return doc

    def to_ocr(self) -> list[int]:
        """0-based indices of the scanned pages OCR reads, when Tesseract is installed."""
        from webfovea.documents import ocr

        if not ocr.available():
            return []
        return [i for i, p in enumerate(self.pages) if p.scanned][: ocr.MAX_OCR_PAGES]

    def apply_ocr(self, pngs: dict[int, bytes]) -> None:
        """Give scanned pages a text layer from Tesseract's word boxes on their renderings."""
        from webfovea.documents import ocr

        for i, png in pngs.items():
            boxes = ocr.recognise(png, RENDER_SCALE)
            if boxes:
                self.pages[i].lines, self.pages[i].ocr = [[Cell(*b)] for b in boxes], True

    def _read(self, index: int) -> PdfPage:
        import pypdfium2.raw as raw

        assert self._doc is not None
        with _LOCK:
            page = self._doc[index]
            w_pt, h_pt = page.get_size()
            scale = page_scale(w_pt, h_pt)
            tp = page.get_textpage()
            n = min(tp.count_chars(), limits.MAX_PDF_CHARS + 1)
            text = tp.get_text_range(0, n) if n else ""
            boxes = [tp.get_charbox(i) for i in range(min(n, len(text)))]
            images = sum(1 for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2))
        out = PdfPage(w_pt * scale, h_pt * scale)
        out.lines = _lines(text, boxes, scale, h_pt)
        if images and len("".join(text.split())) < 5:
            out.scanned, out.lines = True, []
        return out

    def keep_png(self, index: int, png: bytes) -> None:
        self._png[index] = png

    def has_png(self, index: int) -> bool:
        return index in self._png

    def png(self, index: int) -> bytes:
        """Page `index` (0-based) as a PNG, rendered at RENDER_SCALE x its CSS size."""
        if index not in self._png:
            if self._doc is None:
                self._doc = _open(self.data)
            self._png[index] = _render(self._doc, index)
        return self._png[index]


def render_pages(data: bytes, indices: list[int]) -> Iterator[tuple[int, bytes]]:
    """Pages of the PDF `data` as PNGs, one at a time (the sandboxed child's job)."""
    doc = _open(data)
    for i in indices:
        if 0 <= i < min(len(doc), limits.MAX_PDF_PAGES):
            yield i, _render(doc, i)


def _open(data: bytes) -> Any:  # a pypdfium2 PdfDocument, imported lazily
    import pypdfium2 as pdfium

    try:
        with _LOCK:
            return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise limits.Refused(f"it is not a readable PDF ({e})") from None


def _render(doc: Any, index: int) -> bytes:
    with _LOCK:
        page = doc[index]
        scale = page_scale(*page.get_size()) * RENDER_SCALE
        image = page.render(scale=scale, may_draw_forms=False).to_pil()
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def _lines(
    text: str, boxes: list[tuple[float, float, float, float]], scale: float, h_pt: float
) -> list[list[Cell]]:
    """Characters in content order -> lines of cells: a new line where the baseline moves or the
    text runs backwards, a new cell where a gap wider than two characters opens."""
    lines: list[list[Cell]] = []
    run: list[tuple[str, float, float, float, float]] = []  # char, left, bottom, right, top (pt)

    def flush() -> None:
        chars = "".join(c for c, *_ in run).strip()
        if chars:
            left = min(b[1] for b in run if not b[0].isspace())
            right = max(b[3] for b in run if not b[0].isspace())
            top = max(b[4] for b in run if not b[0].isspace())
            bottom = min(b[2] for b in run if not b[0].isspace())
            cell = Cell(
                left * scale, (h_pt - top) * scale, (right - left) * scale, (top - bottom) * scale, chars
            )
            prev = lines[-1][-1] if lines else None
            same = (
                prev is not None
                and abs((prev.y + prev.h) - (cell.y + cell.h)) < 0.4 * max(cell.h, 1)
                and cell.x > prev.x
            )
            if same:
                lines[-1].append(cell)
            else:
                lines.append([cell])
        run.clear()

    # The run's solid (non-space) extent, kept as characters arrive: grouping stays linear
    # in the characters of a line (a recomputation per character made a long line quadratic).
    solid: list[float] = []  # top, bottom, right of the last solid character; empty: none yet
    for ch, (left, bottom, right, top) in zip(text, boxes, strict=False):
        if ch in "\r\n" or (right - left <= 0 and not ch.isspace()):
            flush()
            solid.clear()
            continue
        if run and not ch.isspace() and solid:
            run_top, run_bottom = solid[0], solid[1]
            height = max(run_top - run_bottom, 1.0)
            overlap = min(top, run_top) - max(bottom, run_bottom)
            moved = overlap < 0.3 * max(min(top - bottom, height), 0.1)
            gap = left - solid[2]
            if moved or gap < -height or gap > 1.2 * height:
                flush()
                solid.clear()
        run.append((ch, left, bottom, right, top))
        if not ch.isspace():
            solid[:] = [max(solid[0], top), min(solid[1], bottom), right] if solid else [top, bottom, right]
    flush()
    return lines
