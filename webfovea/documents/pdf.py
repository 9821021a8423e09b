"""PDF pages as images with a text layer, through pypdfium2 (PDFium, Chromium's own PDF engine).

PDFium both renders a page and gives every character's box, so one maintained library yields
the pixels the model sees and the text `find_text`/`read_text` search, in the same coordinates;
pdfplumber would add a second engine (pdfminer) for text whose layout can drift from the
rendering. Forms and JavaScript are never initialised (`init_forms` is not called): a PDF's
scripts cannot run, rendering is all that happens. PDFium is not thread-safe: one lock.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass, field

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


class PdfDoc:
    """An open PDF: its pages' text layers read at once, bitmaps rendered when asked."""

    def __init__(self, data: bytes, *, ocr: bool = False) -> None:
        import pypdfium2 as pdfium

        try:
            with _LOCK:
                self._doc = pdfium.PdfDocument(data)
                self.total = len(self._doc)
        except pdfium.PdfiumError as e:
            raise limits.Refused(f"it is not a readable PDF ({e})") from None
        if self.total == 0:
            raise limits.Refused("the PDF has no pages")
        self.pages = [self._read(i) for i in range(min(self.total, limits.MAX_PDF_PAGES))]
        self._png: dict[int, bytes] = {}
        if ocr:
            self._ocr()

    def _ocr(self) -> None:
        """Give scanned pages a text layer from Tesseract, when it is installed."""
        from webfovea.documents import ocr

        if not ocr.available():
            return
        scanned = [i for i, p in enumerate(self.pages) if p.scanned][: ocr.MAX_OCR_PAGES]
        for i in scanned:
            boxes = ocr.recognise(self.png(i), RENDER_SCALE)
            if boxes:
                self.pages[i].lines, self.pages[i].ocr = [[Cell(*b)] for b in boxes], True

    def _read(self, index: int) -> PdfPage:
        import pypdfium2.raw as raw

        with _LOCK:
            page = self._doc[index]
            w_pt, h_pt = page.get_size()
            scale = PAGE_CSS_WIDTH / w_pt
            tp = page.get_textpage()
            n = tp.count_chars()
            text = tp.get_text_range(0, n) if n else ""
            boxes = [tp.get_charbox(i) for i in range(min(n, len(text)))]
            images = sum(1 for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2))
        out = PdfPage(PAGE_CSS_WIDTH, h_pt * scale)
        out.lines = _lines(text, boxes, scale, h_pt)
        if images and len("".join(text.split())) < 5:
            out.scanned, out.lines = True, []
        return out

    def png(self, index: int) -> bytes:
        """Page `index` (0-based) as a PNG, rendered at RENDER_SCALE x its CSS size."""
        if index not in self._png:
            with _LOCK:
                page = self._doc[index]
                scale = PAGE_CSS_WIDTH * RENDER_SCALE / page.get_width()
                image = page.render(scale=scale, may_draw_forms=False).to_pil()
            buf = io.BytesIO()
            image.convert("RGB").save(buf, "PNG", compress_level=1)
            self._png[index] = buf.getvalue()
        return self._png[index]


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

    for ch, (left, bottom, right, top) in zip(text, boxes, strict=False):
        if ch in "\r\n" or (right - left <= 0 and not ch.isspace()):
            flush()
            continue
        if run and not ch.isspace():
            solid = [b for b in run if not b[0].isspace()]
            if solid:
                run_top, run_bottom = max(b[4] for b in solid), min(b[2] for b in solid)
                height = max(run_top - run_bottom, 1.0)
                overlap = min(top, run_top) - max(bottom, run_bottom)
                moved = overlap < 0.3 * max(min(top - bottom, height), 0.1)
                gap = left - solid[-1][3]
                if moved or gap < -height or gap > 1.2 * height:
                    flush()
        run.append((ch, left, bottom, right, top))
    flush()
    return lines
