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
import io
from dataclasses import dataclass
from typing import Any

from PIL import Image
from playwright.async_api import CDPSession, Page

from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import Component, HarnessConfig
from webfovea.models.conventions import NORM_SPACES, decode_point
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

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

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


async def _answered(send: asyncio.Future, committed: asyncio.Event, timeout_s: float) -> bool:
    """Whether the capture was answered: within `timeout_s`, or within NAV_GRACE_S of a
    main-frame commit that came while it waited (the request is then usually lost)."""
    commit = asyncio.ensure_future(committed.wait())
    try:
        done, _ = await asyncio.wait({send, commit}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
        if send in done:
            return True
        if commit in done:
            await asyncio.wait({send}, timeout=NAV_GRACE_S)
        return send.done() and not send.cancelled() and send.exception() is None
    finally:
        commit.cancel()


_METRICS = "() => [window.innerWidth, window.innerHeight, window.devicePixelRatio]"


async def viewport_of(page: Page, cdp: CDPSession) -> tuple[float, float, float]:
    """(CSS width, CSS height, device pixel ratio) of the viewport, read where the page cannot
    lie: in the harness's isolated world (a page overriding innerWidth changes only its own
    world), else from `Page.getLayoutMetrics`. Never zero."""
    try:
        w, h, dpr = (float(v or 0) for v in await worlds(page).call(await worlds(page).main(), _METRICS))
    except PageUnresponsive:
        raise
    except Exception:
        w = h = dpr = 0.0
    if w <= 0 or h <= 0:
        css = (await cdp.send("Page.getLayoutMetrics")).get("cssVisualViewport") or {}
        w, h = float(css.get("clientWidth") or 0), float(css.get("clientHeight") or 0)
    if w <= 0 or h <= 0:
        size = page.viewport_size or {"width": 1920, "height": 1080}
        w, h = float(size["width"]), float(size["height"])
    return w, h, dpr if dpr > 0 else 1.0


class Screen:
    """Captures through one CDP session per page (cheaper than page.screenshot)."""

    def __init__(self, page: Page, config: HarnessConfig) -> None:
        self.page = page
        self.config = config
        self._cdp: CDPSession | None = None
        self.retries = 0  # captures asked again after timeout_s without an answer
        self.nav_retries = 0  # ... of which a new document committed while it waited
        self.timeout_s, self.attempts = CAPTURE_TIMEOUT_S, CAPTURE_ATTEMPTS

    async def _session(self) -> CDPSession:
        if self._cdp is None:
            self._cdp = await self.page.context.new_cdp_session(self.page)
        return self._cdp

    async def _screenshot(self) -> tuple[CDPSession, dict]:
        for _ in range(self.attempts):
            cdp = await self._session()
            committed = asyncio.Event()

            def on_nav(frame: Any, committed: asyncio.Event = committed) -> None:
                if frame is self.page.main_frame:
                    committed.set()

            self.page.on("framenavigated", on_nav)
            send = asyncio.ensure_future(
                cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True}))
            try:
                if await _answered(send, committed, self.timeout_s):
                    return cdp, send.result()
            finally:
                self.page.remove_listener("framenavigated", on_nav)
            send.cancel()
            self.retries += 1
            self.nav_retries += committed.is_set()
            await self.detach()
        raise PageUnresponsive(f"the browser did not answer {self.attempts} screenshot requests "
                               f"of {self.timeout_s:g} s each")

    async def capture(self) -> Shot:
        cdp, shot = await self._screenshot()
        raw = Image.open(io.BytesIO(base64.b64decode(shot["data"])))
        raw.load()
        raw = raw.convert("RGB")
        # Geometry out of the page's reach: the harness's isolated world, else CDP layout metrics.
        css_w, css_h, dpr = await viewport_of(self.page, cdp)
        aligned = self.config.on(Component.coord_align)
        image = raw
        if aligned:
            target = fit_within(raw.size, (self.config.screenshot_cap_width, self.config.screenshot_cap_height))
            if target != raw.size:
                image = raw.resize(target, Image.Resampling.BILINEAR)
        return Shot(
            image=image,
            css_width=css_w,
            css_height=css_h,
            dpr=dpr,
            raw_size=raw.size,
            coordinate_convention=self.config.coordinate_convention,
            aligned=aligned,
        )

    async def detach(self) -> None:
        if self._cdp is not None:
            try:
                await asyncio.wait_for(self._cdp.detach(), 2.0)
            except Exception:
                pass
            self._cdp = None
