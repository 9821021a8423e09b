"""Did the page react? Fingerprints of the page before and after one action.

The main frame and the child frame under the action's point are fingerprinted; for
actions whose effect may change neither node count nor text length (a hover revealing a
tooltip, a click on a chart) the visible text of the frame under the point is hashed too,
as the action's spec asks (`ActionSpec.text_hash`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser.frames import frame_at_point
from webfovea.browser.world import worlds
from webfovea.feedback.fingerprint import changed, fingerprints_at, text_hash

Point = tuple[float, float]
_SVG_CANVAS_AT = "([x, y]) => { const e = document.elementFromPoint(x, y); return !!(e && e.closest('svg, canvas')); }"


@dataclass
class ChangeWatch:
    before: dict[str, Any] | None
    hash_frame: Frame | None = None
    after: dict[str, Any] | None = None

    @classmethod
    async def start(cls, page: Page, point: Point | None, text_hash_mode: str) -> ChangeWatch:
        """Fingerprint the page before an action at `point` (None: no point)."""
        x, y = point if point is not None else (-1, -1)
        before = await _safe(fingerprints_at(page, x, y))
        watch = cls(before)
        if before is not None and point is not None and text_hash_mode != "never":
            watch.hash_frame = await _hash_frame(page, point, always=text_hash_mode == "always")
            if watch.hash_frame is not None:
                before["text_hash"] = await _safe(text_hash(watch.hash_frame))
        return watch

    async def changed(self, page: Page, point: Point | None) -> bool | None:
        """Fingerprint again and compare; None when either side could not be read."""
        x, y = point if point is not None else (-1, -1)
        after = await _safe(fingerprints_at(page, x, y))
        if after is not None and self.hash_frame is not None:
            after["text_hash"] = await _safe(text_hash(self.hash_frame))
        self.after = after
        if self.before is None or after is None:
            return None
        hb, ha = self.before.get("text_hash"), after.get("text_hash")
        if hb and ha and hb != ha:
            return True
        return changed(self.before, after)


async def _hash_frame(page: Page, point: Point, *, always: bool) -> Frame | None:
    """The frame whose text hash tells whether a hover or an SVG/canvas click did anything."""
    hit = await _safe(frame_at_point(page, *point))
    if hit is None:
        return None
    if always:
        return hit.frame
    if hit.ref is None:
        return None
    on_chart = await _safe(worlds(page).call(hit.ref, _SVG_CANVAS_AT, [hit.local_x, hit.local_y]))
    return hit.frame if on_chart else None


async def _safe(coro: Any) -> Any:
    """DOM probes must never break a step: a page mid-navigation just yields no probe."""
    try:
        return await coro
    except Exception:
        return None
