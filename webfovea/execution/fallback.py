"""The iframe DOM fallback: when a physical click inside a child frame changed nothing,
dispatch the full DOM mouse-event sequence on the element there (never inside CAPTCHA frames,
whose providers treat synthetic events as bot evidence)."""

from __future__ import annotations

from playwright.async_api import Page

from webfovea.browser.frames import frame_at_point, is_captcha_frame, js
from webfovea.browser.world import worlds

_PICK = js("pick")
_KINDS = frozenset({"click", "dblclick", "contextmenu"})


async def dom_click_at(page: Page, x: float, y: float, kind: str = "click") -> bool:
    """Dispatch the full DOM mouse-event sequence on the element at (x, y) inside its frame.

    kind: 'click', 'dblclick' or 'contextmenu'. A see-through overlay on top is skipped in
    favour of the interactive element beneath it. Returns True when events were dispatched;
    False (doing nothing) inside CAPTCHA-provider frames, on an empty point, or on errors.
    """
    if kind not in _KINDS:
        return False
    hit = await frame_at_point(page, x, y)
    if hit.is_captcha or any(is_captcha_frame(u) for u in hit.chain):
        return False
    if hit.ref is None:
        return False
    try:
        arg = {"op": "click", "x": hit.local_x, "y": hit.local_y, "kind": kind}
        return bool(await worlds(page).call(hit.ref, _PICK, arg))
    except Exception:
        return False
