"""The last word on "no change": did the pixels the model sees change?

The image the model was shown before the action is compared with the next capture, on a
coarse grid: a cell counts as changed when enough of its pixels differ (a blinking text
caret does not; a checkbox tick does). Cells are returned in CSS pixels of the viewport so
they can be set against the point of the action and the rectangles of elements that were
changing on their own.
"""

from __future__ import annotations

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
        return [b for b in self.boxes if b[0] - radius <= x <= b[2] + radius and b[1] - radius <= y <= b[3] + radius]

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


def compare(before: Image.Image, after: Image.Image, css_size: tuple[float, float]) -> PixelChange:
    """Changed grid cells between two captures of the same viewport (CSS pixels)."""
    cw, ch = css_size
    if before.size != after.size:
        return PixelChange([(0.0, 0.0, cw, ch)])
    d = ImageChops.difference(before.convert("RGB"), after.convert("RGB"))
    if d.getbbox() is None:
        return PixelChange([])
    w, h = d.size
    r, g, b = d.split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v >= _LEVEL else 0)
    gw, gh = max(1, w // _CELL_PX), max(1, h // _CELL_PX)
    small = mask.resize((gw, gh), Image.Resampling.BOX)
    data = small.tobytes()
    sx, sy = cw / gw, ch / gh
    boxes = [((i % gw) * sx, (i // gw) * sy, (i % gw + 1) * sx, (i // gw + 1) * sy)
             for i, v in enumerate(data) if v >= _SHARE]
    return PixelChange(boxes)
