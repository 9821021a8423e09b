"""The last word on "no change": did the pixels the model sees change?

The image the model was shown before the action is compared with the next capture, on a
coarse grid: a cell counts as changed when enough of its pixels differ (a blinking text
caret does not; a checkbox tick does). Cells are returned in CSS pixels of the viewport so
they can be set against the point of the action and the rectangles of elements that were
changing on their own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageChops

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in CSS pixels

_CELL_PX = 30  # grid cell in pixels of the sent image
_LEVEL = 24  # per-pixel difference (max over channels) that counts
_SHARE = 6  # a cell changed when at least 6/255 (~2.4 %) of its pixels did: ~20 px of 900


@dataclass
class PixelChange:
    boxes: list[Box]  # changed cells, CSS pixels

    def __bool__(self) -> bool:
        return bool(self.boxes)

    def near(self, point: tuple[float, float], radius: float = 120) -> list[Box]:
        x, y = point
        return [
            b
            for b in self.boxes
            if b[0] - radius <= x <= b[2] + radius and b[1] - radius <= y <= b[3] + radius
        ]

    def outside(self, rects: list[Box]) -> list[Box]:
        """Changed cells not explained by any of `rects` (with a small margin)."""

        def inside(b: Box, r: Box) -> bool:
            return b[2] > r[0] - 8 and b[0] < r[2] + 8 and b[3] > r[1] - 8 and b[1] < r[3] + 8

        return [b for b in self.boxes if not any(inside(b, r) for r in rects)]

    def bounds(self, boxes: list[Box] | None = None) -> Box | None:
        bs = self.boxes if boxes is None else boxes
        if not bs:
            return None
        return min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)


def compare(
    before: Image.Image, after: Image.Image, css_size: tuple[float, float], same: bool = False
) -> PixelChange:
    """Changed grid cells between two captures of the same viewport (CSS pixels). `same`: the
    caller knows the two captures are byte-identical (the same PNG), so nothing is compared.

    Only the grid cells that the bounding box of the difference touches are measured: the
    cells are the same as over the whole image (each cell's share is computed on exactly its
    pixels), so a small change costs a small crop, not three full-size passes."""
    cw, ch = css_size
    if same:
        return PixelChange([])
    if before.size != after.size:
        return PixelChange([(0.0, 0.0, cw, ch)])
    d = ImageChops.difference(_rgb(before), _rgb(after))
    bbox = d.getbbox()
    if bbox is None:
        return PixelChange([])
    w, h = d.size
    gw, gh = max(1, w // _CELL_PX), max(1, h // _CELL_PX)
    px, py = w / gw, h / gh  # one cell, in image pixels (fractional when the size is not a multiple)
    c0, r0 = int(bbox[0] // px), int(bbox[1] // py)
    c1, r1 = min(gw, math.ceil(bbox[2] / px)), min(gh, math.ceil(bbox[3] / py))
    x0, y0 = math.floor(c0 * px), math.floor(r0 * py)
    x1, y1 = min(w, math.ceil(c1 * px)), min(h, math.ceil(r1 * py))
    r, g, b = d.crop((x0, y0, x1, y1)).split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v >= _LEVEL else 0)
    small = mask.resize(
        (c1 - c0, r1 - r0), Image.Resampling.BOX, box=(c0 * px - x0, r0 * py - y0, c1 * px - x0, r1 * py - y0)
    )
    data = small.tobytes()
    cols = c1 - c0
    sx, sy = cw / gw, ch / gh
    boxes = [
        ((c0 + i % cols) * sx, (r0 + i // cols) * sy, (c0 + i % cols + 1) * sx, (r0 + i // cols + 1) * sy)
        for i, v in enumerate(data)
        if v >= _SHARE
    ]
    return PixelChange(boxes)


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")
