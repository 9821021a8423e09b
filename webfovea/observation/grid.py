"""The localisation grid of `locate` (seed 002, docs/glossary.md): 16 columns x 12 rows over the viewport screenshot.

The model reads positions in a 0-1000 space on both axes, so every grid line is labelled with
its own 0-1000 value (columns along the top and bottom edge, rows along the left and right
edge): the model first picks the cell, then estimates the point inside it. Lines are one
opaque pixel of a colour web pages rarely use, so they stay visible over any content and an
image reader (the oracle) can find them again; labels sit on small dark plates, sized from
the image so they stay readable at the size the image is sent.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

COLUMNS = 16
ROWS = 12
SPACE = 1000  # the model's coordinate space on both axes
LINE_RGB = (255, 0, 200)  # magenta: rare on real pages, distinct from black/white text
PLATE_RGB = (20, 20, 20)
LABEL_RGB = (255, 255, 255)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:  # Pillow >= 10.1 ships a scalable default font
        return ImageFont.load_default(size=size)
    except TypeError:  # older Pillow: the fixed bitmap font
        return ImageFont.load_default()


def line_positions(extent: int, cells: int) -> list[int]:
    """Pixel positions of the inner grid lines along one axis (the edges are the image's own)."""
    return [round(extent * k / cells) for k in range(1, cells)]


def line_value(k: int, cells: int) -> int:
    """The 0-1000 value of the k-th line (k = 0 .. cells) along an axis."""
    return round(SPACE * k / cells)


def label_size(image: Image.Image) -> int:
    """Label font size in pixels: ~1.1% of the longer side, at least 11 px (readable after a
    provider shrinks a 1440-wide image to ~1430)."""
    return max(11, round(max(image.size) * 0.011))


def draw_grid(image: Image.Image) -> Image.Image:
    """A copy of `image` with the 16x12 grid and its 0-1000 labels drawn over it."""
    out = image.convert("RGB").copy()
    w, h = out.size
    draw = ImageDraw.Draw(out)
    xs, ys = line_positions(w, COLUMNS), line_positions(h, ROWS)
    for x in xs:
        draw.line([(x, 0), (x, h - 1)], fill=LINE_RGB, width=1)
    for y in ys:
        draw.line([(0, y), (w - 1, y)], fill=LINE_RGB, width=1)
    font = _font(label_size(out))
    pad = 2
    for k, x in enumerate(xs, start=1):
        text = str(line_value(k, COLUMNS))
        for top in (True, False):
            _plate(draw, font, text, x, top_edge=top, size=(w, h), pad=pad, vertical_line=True)
    for k, y in enumerate(ys, start=1):
        text = str(line_value(k, ROWS))
        for left in (True, False):
            _plate(draw, font, text, y, top_edge=left, size=(w, h), pad=pad, vertical_line=False)
    return out


def _plate(
    draw: ImageDraw.ImageDraw,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    text: str,
    at: int,
    *,
    top_edge: bool,
    size: tuple[int, int],
    pad: int,
    vertical_line: bool,
) -> None:
    """A label on a dark plate beside its line: at the top/bottom edge for a column line (just
    right of the line), at the left/right edge for a row line (just below it). The plate never
    covers the line itself, so the line stays continuous where it matters: inside the cells."""
    w, h = size
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    tw, th = right - left, bottom - top
    x0: float
    y0: float
    if vertical_line:
        x0 = at + 2
        y0 = 1 if top_edge else h - th - 2 * pad - 1
    else:
        x0 = 1 if top_edge else w - tw - 2 * pad - 1
        y0 = at + 2
    draw.rectangle([x0, y0, x0 + tw + 2 * pad, y0 + th + 2 * pad], fill=PLATE_RGB)
    draw.text((x0 + pad - left, y0 + pad - top), text, fill=LABEL_RGB, font=font)


def find_lines(image: Image.Image) -> tuple[list[int], list[int]] | None:
    """The grid's column and row line positions as drawn on `image` (what a reader of the
    picture finds), or None when the image carries no complete grid. Scans one row and one
    column clear of the label plates, so the page's own magenta pixels rarely interfere."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    y, x = h // 2 + h // (2 * ROWS), w // 2 + w // (2 * COLUMNS)
    cols = _runs(rgb.crop((0, y, w, y + 1)).tobytes())
    rows = _runs(rgb.crop((x, 0, x + 1, h)).tobytes())
    if len(cols) != COLUMNS - 1 or len(rows) != ROWS - 1:
        return None
    return cols, rows


def _runs(data: bytes) -> list[int]:
    """Centres of the runs of exactly-line-coloured pixels along a scanline (RGB bytes)."""
    pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
    out: list[int] = []
    start = None
    for i, p in enumerate([*pixels, (0, 0, 0)]):
        if p == LINE_RGB and start is None:
            start = i
        elif p != LINE_RGB and start is not None:
            out.append((start + i - 1) // 2)
            start = None
    return out
