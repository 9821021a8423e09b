"""Where on the screen the page's text holds an answer's numbers: the region the OCR
cross-check reads first.

Tesseract on a whole 1440x810 screenshot takes seconds (docs/results/verifier.md); on the few
lines that hold the answer's digits it takes a fraction of that. The page's own text says where
those lines are, so the check reads them first, and reads the whole screenshot only when the
region does not show the digits — which is exactly when the cross-check matters: a custom font
drawing other digits than the text holds, a canvas, text left stale. The boxes come from the
main frame's text nodes, in the isolated world (the page's scripts cannot answer for it).
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from webfovea.browser.world import worlds

MAX_BOXES = 40  # a number on every row of a table: past this the region is no smaller than the page

# Text nodes in the viewport whose text holds one of the numbers as a whole number (separators
# inside a number ignored, as guardrails/ocr_check.holds does), as CSS-pixel boxes.
_BOXES = r"""(arg) => {
  const nums = arg.numbers, max = arg.max, out = [];
  const flat = (s) => s.replace(/(?<=\d)[,.'\u00a0\u202f ](?=\d)/g, "");
  const res = nums.map((d) => new RegExp("(?<!\\d)" + d + "(?!\\d)"));
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  const W = innerWidth, H = innerHeight;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = flat(n.nodeValue || "");
    if (!res.some((re) => re.test(t))) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const b of range.getClientRects()) {
      if (b.width < 1 || b.height < 1 || b.bottom <= 0 || b.right <= 0 || b.top >= H || b.left >= W) continue;
      out.push([b.left, b.top, b.right, b.bottom]);
      if (out.length > max) return null;
    }
  }
  return out;
}"""


async def answer_boxes(page: Page, numbers: list[str]) -> list[tuple[float, float, float, float]] | None:
    """CSS boxes of the visible text holding the numbers; None: unknown or too many to help
    (the check then reads the whole screenshot)."""
    if not numbers:
        return None
    w = worlds(page)
    try:
        got: Any = await w.call(await w.main(), _BOXES, {"numbers": numbers, "max": MAX_BOXES}, timeout=2.0)
    except Exception:  # noqa: BLE001 - a page that cannot answer gets the whole-screenshot read
        return None
    if not got:
        return None
    return [(float(a), float(b), float(c), float(d)) for a, b, c, d in got]


PAD_PX = 12  # around the lines: Tesseract needs some margin, and a box can be a pixel off
MAX_SHARE = 0.4  # a region this much of the screenshot saves too little to read it twice


def image_region(
    boxes: list[tuple[float, float, float, float]] | None, to_image: Any, size: tuple[int, int]
) -> tuple[int, int, int, int] | None:
    """The boxes' union in the sent image's pixels (`to_image` maps a CSS point), padded and
    clamped; None when there is none or it is most of the image."""
    if not boxes:
        return None
    corners = [to_image(x, y) for x0, y0, x1, y1 in boxes for x, y in ((x0, y0), (x1, y1))]
    w, h = size
    left = max(0, int(min(x for x, _ in corners)) - PAD_PX)
    top = max(0, int(min(y for _, y in corners)) - PAD_PX)
    right = min(w, int(max(x for x, _ in corners)) + PAD_PX + 1)
    bottom = min(h, int(max(y for _, y in corners)) + PAD_PX + 1)
    if right <= left or bottom <= top or (right - left) * (bottom - top) > MAX_SHARE * w * h:
        return None
    return left, top, right, bottom
