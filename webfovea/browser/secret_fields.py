"""Which fields of a page hold a secret, and painting them over in an image of it.

Every capture of a harness with secrets (`observation/capture.Screen.capture`, and `zoom`'s
crop) asks each frame, in the harness's isolated world, for the boxes of the inputs, text
areas and editable elements whose value holds one of the secrets' values, and fills those
boxes in the image. The image the model is sent, the saved step screenshots and the marked
copies are all that one image, so none shows the value (a password field's dots included:
their count is the value's length).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw
from playwright.async_api import Page

from webfovea.browser.frames import MAX_FRAME_DEPTH
from webfovea.browser.world import FrameRef, PageUnresponsive, Worlds, worlds
from webfovea.config import HarnessConfig

MASK = (48, 48, 48)  # the colour a masked field is filled with

_FIELDS = """(values) => {
  const holds = (s) => typeof s === 'string' && s.length > 0 && values.some((v) => s.includes(v));
  const out = [];
  for (const el of document.querySelectorAll('input, textarea, [contenteditable]')) {
    const text = (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? el.value : el.innerText;
    if (!holds(text)) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) out.push([r.left, r.top, r.width, r.height]);
  }
  return out;
}"""
_FRAMES = "() => Array.from(document.querySelectorAll('iframe, frame'))"
_CONTENT_AT = """(e) => { const r = e.getBoundingClientRect(); const cs = getComputedStyle(e);
  return [r.left + e.clientLeft + (parseFloat(cs.paddingLeft) || 0),
          r.top + e.clientTop + (parseFloat(cs.paddingTop) || 0)]; }"""

Box = tuple[float, float, float, float]  # left, top, width, height in CSS pixels of the viewport


async def _walk(w: Worlds, ref: FrameRef, values: list[str], dx: float, dy: float, depth: int) -> list[Box]:
    boxes = [(x + dx, y + dy, bw, bh) for x, y, bw, bh in await w.call(ref, _FIELDS, values) or []]
    if depth >= MAX_FRAME_DEPTH:
        return boxes
    for el in await w.handles(ref, _FRAMES):
        try:
            left, top = await w.call_on(el, _CONTENT_AT)
            child = await w.frame_of(el)
        except PageUnresponsive:
            raise
        except Exception:
            continue
        finally:
            await w.release(el)
        if child is not None:
            try:
                boxes += await _walk(w, child, values, dx + left, dy + top, depth + 1)
            except PageUnresponsive:
                raise
            except Exception:  # a frame that went away: the others are still masked
                continue
    return boxes


async def secret_boxes(page: Page, values: Sequence[str]) -> list[Box]:
    """The CSS boxes of every field (in any frame) whose value holds one of `values`."""
    if not values:
        return []
    w = worlds(page)
    return await _walk(w, await w.main(), list(values), 0.0, 0.0, 0)


def paint(image: Image.Image, boxes: Sequence[Box], css_size: tuple[float, float]) -> None:
    """Fill each box (CSS pixels of a `css_size` viewport) in the image, in place; a pixel of
    margin on each side so antialiased edges of the text go too."""
    if not boxes:
        return
    sx, sy = image.width / css_size[0], image.height / css_size[1]
    draw = ImageDraw.Draw(image)
    for x, y, bw, bh in boxes:
        draw.rectangle([x * sx - 1, y * sy - 1, (x + bw) * sx + 1, (y + bh) * sy + 1], fill=MASK)


def secret_values(config: HarnessConfig) -> list[str]:
    """The values of the config's secrets (the ones read back without a value left out)."""
    return [v for s in config.secrets.values() if (v := s.plain())]


async def mask_secrets(
    page: Page, config: HarnessConfig, image: Image.Image, region: Box, css_size: tuple[float, float]
) -> bool:
    """Paint over the secret fields in `image`, a picture of the viewport's `region` (CSS
    left, top, width, height) at `css_size`; whether any field was painted."""
    values = secret_values(config)
    if not values:
        return False
    boxes = [(x - region[0], y - region[1], w, h) for x, y, w, h in await secret_boxes(page, values)]
    paint(image, boxes, css_size)
    return bool(boxes)
