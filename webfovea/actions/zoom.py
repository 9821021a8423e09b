"""zoom(region): the fovea. A region of the screenshot, re-rendered at full resolution.

The paper names the agent after the fovea — the eye shifts its gaze to bring a detail into
sharp view — and Claude's computer tool (`computer_20251124`, `enable_zoom`) has the same
idea as an action. The region's corners are in the model's coordinate space and are mapped
to CSS pixels by the view's own mapping (the same as a click), then clipped to the viewport;
an inverted or empty region is refused in one sentence (its budget refunded), nothing captured.

How detailed the crop is (decided here): Chromium re-rasterises a CDP
`Page.captureScreenshot` clip at its `scale`, so the crop is not an upsampled screenshot —
6 px text comes back as real glyphs. The scale is the largest that keeps the crop within the
model's image limit (the screenshot cap, which the conventions row sized so the provider
never resizes an image), at most MAX_SCALE. So a small region is magnified up to 8x and a
crop is at least as detailed as the page's device pixels whenever the limit allows; a region
too large for that is shown at the limit and the note says so.

It never clicks and watches nothing: the crop goes to the model with the next input (beside
the screenshot in vision mode, alone in structured mode; inside the tool_result of Claude's
computer-tool zoom call), and the step record keeps it as step_NNN_zoom.png.
"""

from __future__ import annotations

import base64
import io

from PIL import Image
from playwright.async_api import Page

from webfovea.actions.locate import model_point
from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.capture_gate import send_capture
from webfovea.browser.secret_fields import mask_secrets
from webfovea.config import Component
from webfovea.execution.context import View
from webfovea.guardrails.bounds import OutOfBounds
from webfovea.types import Action, ParamSpec

MAX_SCALE = 8.0  # a CSS pixel as 8x8 image pixels already shows a 6 px glyph at 48 px
MIN_CSS = 1.0  # a region narrower or lower than one CSS pixel (after clipping) is empty
ZOOM_WAIT_S = 4.0  # for a capture still in flight on the page (browser/capture_gate.py)


def css_region(view: View, box: tuple[float, float, float, float]) -> tuple[float, float, float, float, bool]:
    """The region's corners in CSS pixels of the viewport, clipped to it; and whether it was clipped."""
    x1, y1 = view.to_css(box[0], box[1])
    x2, y2 = view.to_css(box[2], box[3])
    w, h = float(view.css_width), float(view.css_height)
    clipped = (min(max(x1, 0.0), w), min(max(y1, 0.0), h), min(max(x2, 0.0), w), min(max(y2, 0.0), h))
    return (*clipped, clipped != (x1, y1, x2, y2))


def zoom_scale(css_w: float, css_h: float, limit: tuple[int, int]) -> float:
    """Image pixels per CSS pixel: the crop as large as the model's image limit allows, at most MAX_SCALE."""
    return min(limit[0] / css_w, limit[1] / css_h, MAX_SCALE)


async def capture_region(page: Page, x: float, y: float, w: float, h: float, scale: float) -> Image.Image:
    """The viewport region (CSS px) rendered at `scale` by Chromium itself (CDP clip)."""
    cdp = await page.context.new_cdp_session(page)
    try:
        # A clip is in document coordinates: add where the visual viewport is scrolled to,
        # read from the browser (out of the page's reach), as the screenshot's geometry is.
        metrics = await cdp.send("Page.getLayoutMetrics")
        vv = metrics.get("cssVisualViewport") or {}
        clip = {
            "x": float(vv.get("pageX") or 0) + x,
            "y": float(vv.get("pageY") or 0) + y,
            "width": w,
            "height": h,
            "scale": scale,
        }
        shot = await (await send_capture(page, cdp, {"format": "png", "clip": clip}, ZOOM_WAIT_S))
    finally:
        try:
            await cdp.detach()
        except Exception:
            pass
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"])))
    image.load()
    return image.convert("RGB")


def _fmt(box: tuple[float, ...]) -> str:
    return "(" + ",".join(f"{v:g}" for v in box) + ")"


async def exec_zoom(ctx: ExecContext, action: Action) -> Outcome:
    # A region that is no region is refused like a point outside the image: one sentence,
    # the budget refunded by the executor, nothing captured.
    box = tuple(float(v) for v in action.args.get("region") or ())
    if len(box) != 4:
        raise OutOfBounds("it needs a region (x1,y1,x2,y2); nothing was captured.")
    if box[2] <= box[0] or box[3] <= box[1]:
        raise OutOfBounds(
            f"the region {_fmt(box)} is empty or inverted; give (x1,y1,x2,y2) with the top-left "
            "corner first (x1 < x2, y1 < y2); nothing was captured."
        )
    x1, y1, x2, y2, clipped = css_region(ctx.view, box)
    w, h = x2 - x1, y2 - y1
    if w < MIN_CSS or h < MIN_CSS:
        raise OutOfBounds(
            f"the region {_fmt(box)} lies outside the screenshot ({ctx.view.bounds_text()}); "
            "nothing was captured."
        )
    limit = (ctx.config.screenshot_cap_width, ctx.config.screenshot_cap_height)
    scale = zoom_scale(w, h, limit)
    image = await capture_region(ctx.page, x1, y1, w, h, scale)
    await mask_secrets(ctx.page, ctx.config, image, (x1, y1, w, h), (w, h))  # a secret field stays covered
    if image.width > limit[0] or image.height > limit[1]:  # Chromium rounds the clip's size up
        image.thumbnail(limit, Image.Resampling.LANCZOS)
    dpr = float(getattr(ctx.view, "dpr", 1.0) or 1.0)
    shown = _fmt(model_point(ctx.view, x1, y1) + model_point(ctx.view, x2, y2)) if clipped else _fmt(box)
    label = (
        f"Zoomed region {shown} of the screenshot, magnified {scale:.3g}x ({image.width}x{image.height} px). "
        "Point in the screenshot, not in this image, to act."
    )
    note = (
        f"zoom: the region {shown}{' (clipped to the screenshot)' if clipped else ''} is attached magnified "
        f"{scale:.3g}x ({image.width}x{image.height} px); its pixels are not screenshot coordinates."
    )
    if scale < dpr:
        note += " The region is larger than one image can show in full detail: zoom on a smaller one to read more."
    info = {
        "region": list(box),
        "region_css": [round(v, 2) for v in (x1, y1, x2, y2)],
        "clipped": clipped,
        "scale": round(scale, 4),
        "dpr": dpr,
        "image_size": [image.width, image.height],
    }
    ctx.response.attach("zoom", label, image, info, record_as="zoom")
    return Outcome(check_change=False, note=note)


SPECS = [
    ActionSpec(
        name="zoom",
        params=(ParamSpec("region", "box"),),
        signature="zoom(region='<|box_start|>(x1,y1,x2,y2)<|box_end|>')",
        purpose="See a region of the screenshot (top-left x1,y1 to bottom-right x2,y2) re-rendered at full "
        "resolution and magnified, for small text and dense charts; it does not click.",
        execute=exec_zoom,
        component=Component.zoom,
        watch=False,
        budget=10,
        aliases=("zoom_in", "magnify"),
        rule="When text or a number is too small to read with certainty in the screenshot, zoom on its region "
        "before you use or answer it; never guess a digit.",
        feedback="The region as zoomed (clipped to the screenshot if it reached past it) and the attached image's "
        "magnification and size; or, for an empty or inverted region, one sentence and nothing captured.",
    ),
]
