"""Which frame is under a point of the main viewport, and the injected-JS loader.

Points are CSS pixels of the main viewport (Playwright `page.mouse` coordinates). We walk
from the main frame down through child frames, using each iframe element's content box
(border and padding removed) in its parent's viewport, so the same code serves same-origin,
cross-origin in-process and out-of-process frames.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser.world import FrameRef, PageUnresponsive, Worlds, worlds

_JS_DIR = Path(__file__).with_name("js")
MAX_FRAME_DEPTH = 8


@cache
def js(name: str) -> str:
    """A function expression from js/<name>.js, with js/common.js in its scope.

    The helpers live inside the function, so nothing is left on the page's globals and a
    page that redefines globals cannot break them between calls.
    """
    common = (_JS_DIR / "common.js").read_text()
    body = (_JS_DIR / f"{name}.js").read_text().strip()
    return f"(...args) => {{\n{common}\nreturn (\n{body}\n)(...args);\n}}"


def short_error(e: BaseException) -> str:
    """First line of a Playwright error, without its call log."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:200]


_CAPTCHA = re.compile(
    r"""(
        (^|[./])recaptcha\.net |
        google\.com/recaptcha | /recaptcha/(api2|enterprise|api)/ |
        (^|[./])hcaptcha\.com | newassets\.hcaptcha |
        challenges\.cloudflare\.com | /cdn-cgi/challenge-platform/ |
        (^|[./])arkoselabs\.com | (^|[./])funcaptcha\.com | /fc/gc/ |
        (^|[./])geetest\.com | gcaptcha4 |
        captcha-delivery\.com | (^|[./])mtcaptcha\.com | (^|[./])friendlycaptcha\.com |
        px-captcha | perimeterx | awswaf\.com/.*captcha | (^|[./])captcha\.
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def is_captcha_frame(url: str) -> bool:
    """True for frames served by CAPTCHA providers (reCAPTCHA, hCaptcha, Turnstile, Arkose, GeeTest ...).

    Synthetic events inside them are detectable and against their rules, so the DOM
    fallback must never touch them.
    """
    if not url or url.startswith(("about:", "data:")):
        return False
    return bool(_CAPTCHA.search(url.split("#", 1)[0]))


@dataclass
class FrameHit:
    frame: Frame
    local_x: float  # the point in the frame's own viewport
    local_y: float
    chain: list[str] = field(default_factory=list)  # frame urls, main first
    is_child: bool = False
    is_captcha: bool = False
    covered_by: str | None = None  # a see-through element of a parent document above the iframe
    ref: FrameRef | None = None  # the frame in the harness's isolated worlds (browser.world)
    origin: tuple[float, float] = (0.0, 0.0)  # where the frame's viewport starts in the main viewport

    @property
    def url(self) -> str:
        return self.chain[-1] if self.chain else ""


_PROBE = js("iframe_probe")


async def _child_at(w: Worlds, ref: FrameRef, x: float, y: float) -> tuple[FrameRef, dict[str, Any]] | None:
    """The child frame of `ref` whose viewport the point reaches, with its offset."""
    el = await w.handle(ref, _PROBE, {"x": x, "y": y})
    if el is None:
        return None
    try:
        best = await w.call_on(el, _PROBE, {"x": x, "y": y})
        child = await w.frame_of(el)
    finally:
        await w.release(el)
    return (child, best) if child is not None and best else None


async def frame_at_point(page: Page, x: float, y: float) -> FrameHit:
    """The innermost frame whose viewport contains (x, y), and the point in its coordinates.

    Hit-testing runs in the harness's isolated world of each frame (`browser.world`), so a
    page overriding `elementsFromPoint` or geometry cannot steer it. Never raises for page
    trouble (the walk stops at the deepest frame found so far) except `PageUnresponsive`.
    """
    w = worlds(page)
    frame = page.main_frame
    lx, ly = float(x), float(y)
    chain = [frame.url]
    covered: str | None = None
    ref: FrameRef | None = None
    try:
        ref = await w.main()
        if lx >= 0 and ly >= 0:
            for _ in range(MAX_FRAME_DEPTH):
                if not any(not c.is_detached() for c in frame.child_frames):
                    break  # the browser reports no child frame here: nothing to probe
                found = await _child_at(w, ref, lx, ly)
                if found is None:
                    break
                child, best = found
                pw = await w.to_playwright(child, frame)
                ref, frame = child, pw or frame
                lx -= best["left"]
                ly -= best["top"]
                chain.append(await w.url(child))
                covered = best.get("cover") or covered
    except PageUnresponsive:
        raise
    except Exception:
        pass
    return FrameHit(
        frame=frame,
        local_x=lx,
        local_y=ly,
        chain=chain,
        is_child=len(chain) > 1,
        is_captcha=any(is_captcha_frame(u) for u in chain[1:]),
        covered_by=covered,
        ref=ref,
        origin=(float(x) - lx, float(y) - ly),
    )
