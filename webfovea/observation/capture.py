"""Screen capture and the coordinate mapping between the sent image and the CSS viewport.

The model points in the image it was sent. With alignment on, the harness sends at most
the cap (1440x810 by default, lowered to what the model's provider passes unscaled:
`observation/sizing.py`) and maps by the ratio of that image to the CSS viewport,
measured at run time (device pixel ratio included). With it off (the reference agent), the
full-size screenshot is sent and model coordinates are taken as full-size pixels — which
is right only if the provider did not downscale the image before the model saw it.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
from dataclasses import dataclass
from typing import Any

from PIL import Image
from playwright.async_api import CDPSession, Page

from webfovea.browser.capture_gate import send_capture
from webfovea.browser.secret_fields import mask_secrets
from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import Component, HarnessConfig
from webfovea.models.conventions import NORM_SPACES, decode_point, encode_point
from webfovea.models.messages import share_encoding
from webfovea.observation.sizing import fit_within


@dataclass
class Shot:
    image: Image.Image  # exactly what the model is sent
    css_width: float
    css_height: float
    dpr: float
    raw_size: tuple[int, int]  # device pixels captured
    coordinate_convention: str  # "pixels", "norm1000" or "norm999" (models/conventions_row.py)
    aligned: bool
    # Hash of the PNG the image was decoded from: two shots with the same digest show the same
    # pixels, so the pixel check needs no comparison (None: unknown, compare the images).
    digest: bytes | None = None
    # The capture's PNG when `image` holds exactly its pixels (not shrunk, not masked): the task
    # folder writes it as it is instead of encoding the image again (~30 ms a 1440x810 step).
    png: bytes | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def kept(self) -> Image.Image:
        """The image as the history keeps it between steps: opened from its own PNG, so its
        pixels are decoded only if a model client looks at them again (most past images are
        only counted or already in a provider's transcript): ~0.5 MB each instead of 4.7 MB for
        1440x810 (4 past images in a 5-image window). The decoded image when there is no PNG."""
        if self.png is None:
            return self.image
        lazy = Image.open(io.BytesIO(self.png))
        if (lazy.mode, lazy.size) != (self.image.mode, self.image.size):
            return self.image
        share_encoding(self.image, lazy)
        return lazy

    def to_css(self, x: float, y: float) -> tuple[float, float]:
        """Model coordinates -> CSS pixels of the viewport."""
        if self.coordinate_convention in NORM_SPACES:
            return decode_point(self.coordinate_convention, x, y, self.css_width, self.css_height)
        if self.aligned:
            w, h = self.image.size
            return x * self.css_width / w, y * self.css_height / h
        # Reference behaviour: model pixels are taken as pixels of the full-size capture
        # (which may be device pixels or CSS pixels, depending on how the browser captures).
        return x * self.css_width / self.raw_size[0], y * self.css_height / self.raw_size[1]

    def to_model(self, x: float, y: float) -> tuple[float, float]:
        """CSS pixels of the viewport -> the coordinates the model writes (inverse of `to_css`),
        so that every point a note names is in the space of the image the model was sent."""
        if self.coordinate_convention in NORM_SPACES:
            return encode_point(self.coordinate_convention, x, y, self.css_width, self.css_height)
        if self.aligned:
            return self.from_css(x, y)
        return x * self.raw_size[0] / self.css_width, y * self.raw_size[1] / self.css_height

    def in_bounds(self, x: float, y: float) -> bool:
        if self.coordinate_convention in NORM_SPACES:
            top = NORM_SPACES[self.coordinate_convention][1]
            return 0 <= x <= top and 0 <= y <= top
        w, h = self.image.size
        return 0 <= x <= w and 0 <= y <= h

    def bounds_text(self) -> str:
        if self.coordinate_convention in NORM_SPACES:
            return f"0-{NORM_SPACES[self.coordinate_convention][1]} on both axes"
        w, h = self.image.size
        return f"x 0-{w}, y 0-{h}"

    def from_css(self, x: float, y: float) -> tuple[float, float]:
        """CSS pixels -> sent-image pixels (for marking the executed point)."""
        w, h = self.image.size
        return x * w / self.css_width, y * h / self.css_height


# Chromium can leave Page.captureScreenshot unanswered for good when the page's document is
# replaced while the capture waits for a frame (a form submission under load): the frame the
# request waits for never comes. A capture that takes this long is dropped with its CDP
# session and asked again on a fresh one.
CAPTURE_TIMEOUT_S = 4.0
CAPTURE_ATTEMPTS = 2

NAV_GRACE_S = 0.5  # after a commit, how long an outstanding capture may still take


async def _answered(send: asyncio.Future[Any], committed: asyncio.Event, timeout_s: float) -> bool:
    """Whether the capture was answered: within `timeout_s`, or within NAV_GRACE_S of a
    main-frame commit that came while it waited (the request is then usually lost)."""
    commit = asyncio.ensure_future(committed.wait())
    try:
        done, _ = await asyncio.wait({send, commit}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
        if send not in done and commit in done:
            await asyncio.wait({send}, timeout=NAV_GRACE_S)
        # An error answer ("Not attached to an active page": the document went away) is asked
        # again like a lost one.
        return send.done() and not send.cancelled() and send.exception() is None
    finally:
        commit.cancel()


# The viewport's CSS size and device pixel ratio, and where the visual viewport sits in the
# document (a clipped capture is placed in document coordinates).
_METRICS = """() => { const v = window.visualViewport;
  return [innerWidth, innerHeight, devicePixelRatio, v ? v.pageLeft : scrollX, v ? v.pageTop : scrollY,
          v ? v.scale : 1]; }"""

Geometry = tuple[float, float, float, float, float, float]  # css w, css h, dpr, page x, page y, pinch scale


async def geometry_of(page: Page, cdp: CDPSession, timeout: float | None = None) -> Geometry:
    """The viewport, read where the page cannot lie: in the harness's isolated world (a page
    overriding innerWidth changes only its own world), else from `Page.getLayoutMetrics`.
    Width and height are never zero."""
    try:
        w_ = worlds(page)
        got = [float(v or 0) for v in await w_.call(await w_.main(), _METRICS, timeout=timeout)]
        w, h, dpr, px, py, zoom = got
    except PageUnresponsive:
        raise
    except Exception:
        w = h = dpr = px = py = 0.0
        zoom = 1.0
    if w <= 0 or h <= 0:
        try:
            metrics = await asyncio.wait_for(cdp.send("Page.getLayoutMetrics"), timeout or CAPTURE_TIMEOUT_S)
        except TimeoutError:
            raise PageUnresponsive("the browser did not answer Page.getLayoutMetrics") from None
        css = metrics.get("cssVisualViewport") or {}
        w, h = float(css.get("clientWidth") or 0), float(css.get("clientHeight") or 0)
        px, py = float(css.get("pageX") or 0), float(css.get("pageY") or 0)
    if w <= 0 or h <= 0:
        size = page.viewport_size or {"width": 1920, "height": 1080}
        w, h = float(size["width"]), float(size["height"])
    return w, h, dpr if dpr > 0 else 1.0, px, py, zoom or 1.0


async def viewport_of(page: Page, cdp: CDPSession) -> tuple[float, float, float]:
    """(CSS width, CSS height, device pixel ratio) of the viewport (`geometry_of`)."""
    return (await geometry_of(page, cdp))[:3]


@dataclass
class _Decoded:
    image: Image.Image  # RGB
    digest: bytes | None  # of the PNG (only the pixel check of the feedback notes uses it)
    png: bytes | None  # the PNG itself when it decodes to exactly `image` (RGB already)


def _decode(data: str, digest: bool = True) -> _Decoded:
    """The RGB image of a CDP capture, the digest of its PNG (None when the feedback notes are
    off), and the PNG."""
    png = base64.b64decode(data)
    raw = Image.open(io.BytesIO(png))
    raw.load()
    same = raw.mode == "RGB"
    return _Decoded(
        raw if same else raw.convert("RGB"),
        hashlib.sha1(png, usedforsecurity=False).digest() if digest else None,
        png if same else None,
    )


def _decode_fit(data: str, cap: tuple[int, int] | None, digest: bool) -> tuple[tuple[int, int], _Decoded]:
    """(full size, the capture with its image shrunk to fit `cap` (None: as captured))."""
    got = _decode(data, digest)
    size = got.image.size
    target = fit_within(size, cap) if cap is not None else size
    if target != size:
        got = _Decoded(got.image.resize(target, Image.Resampling.BILINEAR), got.digest, None)
    return size, got


class Screen:
    """Captures through one CDP session per page (cheaper than page.screenshot)."""

    def __init__(self, page: Page, config: HarnessConfig) -> None:
        self.page = page
        self.config = config
        self._cdp: CDPSession | None = None
        self.fallbacks = 0  # browser-scaled captures redone full size (the viewport moved meanwhile)
        self.retries = 0  # captures asked again after timeout_s without an answer
        self.nav_retries = 0  # ... of which a new document committed while it waited
        self.timeout_s, self.attempts = CAPTURE_TIMEOUT_S, CAPTURE_ATTEMPTS

    def counts(self) -> dict[str, int]:
        """The capture troubles so far (the step record carries each step's share)."""
        return {"retries": self.retries, "nav_retries": self.nav_retries, "fallbacks": self.fallbacks}

    async def _session(self) -> CDPSession:
        if self._cdp is None:
            try:
                self._cdp = await asyncio.wait_for(
                    self.page.context.new_cdp_session(self.page), self.timeout_s
                )
            except TimeoutError:
                raise PageUnresponsive(
                    f"the browser did not open a CDP session within {self.timeout_s:g} s"
                ) from None
        return self._cdp

    async def _screenshot(self, params: dict[str, Any]) -> tuple[CDPSession, str]:
        """(the session that answered, the PNG as base64), bounded: PageUnresponsive after
        `attempts` unanswered requests, each on a fresh session."""
        for _ in range(self.attempts):
            cdp = await self._session()
            committed = asyncio.Event()

            def on_nav(frame: Any, committed: asyncio.Event = committed) -> None:
                if frame is self.page.main_frame:
                    committed.set()

            # Sent once the page's last request is back; only a commit after that counts.
            send = await send_capture(self.page, cdp, params, self.timeout_s)
            self.page.on("framenavigated", on_nav)
            try:
                if await _answered(send, committed, self.timeout_s):
                    return cdp, send.result()["data"]
            finally:
                self.page.remove_listener("framenavigated", on_nav)
            send.cancel()
            self.retries += 1
            self.nav_retries += committed.is_set()
            await self.detach()
        raise PageUnresponsive(
            f"the browser did not answer {self.attempts} screenshot requests of {self.timeout_s:g} s each"
        )

    @property
    def _digests(self) -> bool:
        return self.config.on(Component.feedback_notes)

    async def capture(self) -> Shot:
        shot = await self._capture()
        # Before anyone sees the image: the model, the records, the pixel check.
        size = (shot.css_width, shot.css_height)
        if self.config.secrets and await mask_secrets(
            self.page, self.config, shot.image, (0, 0, *size), size
        ):
            shot.digest = shot.png = None  # the PNG no longer holds these pixels
        return shot

    async def _capture(self) -> Shot:
        cdp = await self._session()
        aligned = self.config.on(Component.coord_align)
        cap = (self.config.screenshot_cap_width, self.config.screenshot_cap_height)
        if aligned and self.config.capture_scaling == "browser":
            shot = await self._scaled(cdp, cap)
            if shot is not None:
                return shot
        cdp, data = await self._screenshot({"format": "png", "optimizeForSpeed": True})
        # Geometry out of the page's reach: the harness's isolated world, else CDP layout metrics
        # (read while the PNG decodes and shrinks in a thread).
        (raw_size, got), viewport = await asyncio.gather(
            asyncio.to_thread(_decode_fit, data, cap if aligned else None, self._digests),
            viewport_of(self.page, cdp),
        )
        return self._shot(got, viewport, raw_size, aligned)

    async def _scaled(self, cdp: CDPSession, cap: tuple[int, int]) -> Shot | None:
        """The viewport rendered by Chromium at the sent size: a clip of the visual viewport
        (document coordinates) with a scale. The geometry is read before (to place the clip)
        and after: if the page scrolled or resized in between, the clip may show the wrong
        region, so None (the caller takes a full-size capture).

        Only at a device pixel ratio of 1 and no pinch zoom: Chromium renders a scaled clip by
        overriding the device metrics for the capture and then clears the override, which on
        a context with another device scale factor leaves the page at ratio 1 (measured: a
        dpr-2 page reads devicePixelRatio 1 afterwards). At ratio 1 nothing the page can see
        changes (no resize, media-query or devicePixelRatio change)."""
        try:
            # bounded like the capture: a frozen page goes on to the full-size capture's own bound
            before = await geometry_of(self.page, cdp, timeout=self.timeout_s)
        except PageUnresponsive:
            return None
        css_w, css_h, dpr, px, py, zoom = before
        full = (round(css_w * dpr), round(css_h * dpr))
        target = fit_within(full, cap)
        if zoom != 1.0 or dpr != 1.0:
            return None
        if target == full:
            clip = None  # nothing to shrink: a plain viewport capture
        else:
            # clip is in CSS pixels; scale 1 would give device pixels (css x dpr)
            clip = {"x": px, "y": py, "width": css_w, "height": css_h, "scale": target[0] / (css_w * dpr)}
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        if clip is not None:
            params["clip"] = clip
        cdp, data = await self._screenshot(params)
        if clip is None:
            got = _decode(data, self._digests)
        else:
            # The PNG decodes in a thread while the geometry is read again (a round trip to the page).
            got, after = await asyncio.gather(
                asyncio.to_thread(_decode, data, self._digests), geometry_of(self.page, cdp)
            )
            if after != before:
                self.fallbacks += 1
                return None
        if got.image.size != target:  # rounding of the scaled clip: a pixel off at most
            got = _Decoded(got.image.resize(target, Image.Resampling.BILINEAR), got.digest, None)
        return self._shot(got, (css_w, css_h, dpr), full, True)

    def _shot(
        self, got: _Decoded, viewport: tuple[float, float, float], raw_size: tuple[int, int], aligned: bool
    ) -> Shot:
        css_w, css_h, dpr = viewport
        return Shot(
            image=got.image,
            css_width=css_w,
            css_height=css_h,
            dpr=dpr,
            raw_size=raw_size,
            coordinate_convention=self.config.coordinate_convention,
            aligned=aligned,
            digest=got.digest,
            png=got.png,
        )

    async def detach(self) -> None:
        if self._cdp is not None:
            try:
                await asyncio.wait_for(self._cdp.detach(), 2.0)
            except Exception:
                pass
            self._cdp = None
