"""Which fields of a page hold a secret, and painting them over in an image of it.

Every capture of a harness with secrets (`observation/capture.Screen.capture`, and `zoom`'s
crop) asks each frame, in the harness's isolated world, for the fields that hold a secret:
by identity first — every element the harness typed a secret into is marked (`SECRET_MARK`,
execution/secrets.py), in open or closed shadow roots alike — and then by value, for a field
that holds a value or a long prefix of one in any case (a page copying it, a `maxlength`
field that kept part of it). Each field's box is taken in its own frame's viewport and mapped
to the page's through the content quad of every <iframe> on the way (CDP `DOM.getBoxModel`:
transforms, scaled and rotated frames, borders and padding included), then filled in the
image. The image the model is sent, the saved step screenshots and the marked copies are all
that one image, so none shows the value (a password field's dots included: their count is
the value's length).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw
from playwright.async_api import Page

from webfovea.browser.frames import MAX_FRAME_DEPTH
from webfovea.browser.world import FrameRef, PageUnresponsive, Remote, Worlds, worlds
from webfovea.config import HarnessConfig
from webfovea.secrets import mask_needles

MASK = (48, 48, 48)  # the colour a masked field is filled with
# The isolated world's global holding the elements a secret was typed into (a Set).
SECRET_MARK = "__wfSecretFields"

_FIELDS = (
    """(needles) => {
  const holds = (s) => { if (typeof s !== 'string' || !s) return false; const l = s.toLowerCase();
    return needles.some((v) => l.includes(v)); };
  const out = [], seen = new Set();
  const add = (el) => { if (seen.has(el) || !el.isConnected) return; seen.add(el);
    const r = el.getBoundingClientRect(); if (r.width > 0 && r.height > 0) out.push([r.left, r.top, r.width, r.height]); };
  for (const el of globalThis.SECRET_MARK || []) add(el);
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) walk(el.shadowRoot);
    const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
    if (field ? holds(el.value) : el.isContentEditable && holds(el.innerText)) add(el); } };
  walk(document);
  return {boxes: out, size: [innerWidth, innerHeight]};
}"""
).replace("SECRET_MARK", SECRET_MARK)
_FRAMES = """() => { const out = []; const walk = (root) => { for (const el of root.querySelectorAll('*')) {
  if (el.shadowRoot) walk(el.shadowRoot); if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') out.push(el); } };
  walk(document); return out; }"""

Box = tuple[float, float, float, float]  # left, top, width, height in CSS pixels of the viewport
Quad = tuple[float, float, float, float, float, float, float, float]  # four corners, clockwise
# A frame's viewport onto the page's: the quad its (w, h) viewport shows as; None: the page itself.
Map = tuple[Quad, float, float] | None


def _to_page(m: Map, x: float, y: float) -> tuple[float, float]:
    if m is None:
        return x, y
    q, w, h = m
    u, v = x / w if w else 0.0, y / h if h else 0.0
    return q[0] + u * (q[2] - q[0]) + v * (q[6] - q[0]), q[1] + u * (q[3] - q[1]) + v * (q[7] - q[1])


def _box_on_page(m: Map, box: Sequence[float]) -> Box:
    """The page box covering a frame-local box (its four corners mapped, then their bounds)."""
    x, y, w, h = box
    pts = [_to_page(m, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


async def _content_quad(w: Worlds, el: Remote, root: Map) -> Quad | None:
    """The <iframe>'s content box as it shows on the page: CDP gives it in its session's root
    frame's viewport (transforms applied), `root` maps that onto the page's."""
    model = (await w.send(el.ref.session, "DOM.getBoxModel", {"objectId": el.object_id}))["model"]
    q = [float(v) for v in model["content"]]
    pts = [_to_page(root, q[i], q[i + 1]) for i in range(0, 8, 2)]
    return tuple(c for p in pts for c in p)  # type: ignore[return-value]


async def _walk(w: Worlds, ref: FrameRef, needles: list[str], here: Map, root: Map, depth: int) -> list[Box]:
    """`here`: this frame's viewport onto the page; `root`: its CDP session's root frame's."""
    got = await w.call(ref, _FIELDS, needles) or {}
    boxes = [_box_on_page(here, b) for b in got.get("boxes") or []]
    if depth >= MAX_FRAME_DEPTH:
        return boxes
    for el in await w.handles(ref, _FRAMES):
        try:
            quad = await _content_quad(w, el, root)
            child = await w.frame_of(el)
        except PageUnresponsive:
            raise
        except Exception:
            continue
        finally:
            await w.release(el)
        if child is None or quad is None:
            continue
        try:
            size = (await w.call(child, "() => [innerWidth, innerHeight]")) or [0, 0]
            m: Map = (quad, float(size[0]), float(size[1]))
            # An out-of-process frame is its own session's root; an in-process one shares ours.
            boxes += await _walk(
                w, child, needles, m, m if child.session is not ref.session else root, depth + 1
            )
        except PageUnresponsive:
            raise
        except Exception:  # a frame that went away: the others are still masked
            continue
    return boxes


async def secret_boxes(page: Page, values: Sequence[str]) -> list[Box]:
    """The page boxes of every field (in any frame) a secret was typed into or that holds one
    of `values` (or a long prefix of one, in any case)."""
    w = worlds(page)
    return await _walk(w, await w.main(), mask_needles(values), None, None, 0)


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
