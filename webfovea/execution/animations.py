"""Finite animations the page runs, as Chromium reports them over CDP (the Animation domain).

The recorder's own count (`document.getAnimations()` in the isolated world) misses every
animation inside a shadow root — web-component libraries (Shoelace, Lit, Material Web) animate
their dialogs, menus and listboxes there, closed roots included — and it only sees the
frames it polls. Chromium's Animation domain reports each CSS transition, CSS animation and
Web Animation when it starts, with its timing, wherever it lives in the page's process.

Bookkeeping is on the Python side, out of the page's reach; a page that starts animations
without end can hold a wait only for as long as the settle bound allows.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Page

_LONGEST_S = 3.0  # an animation longer than this is a show, not the page answering an action
_SYNC_TIMEOUT_S = 0.5
_KEEP_S = 10.0  # ended animations are remembered this long, for ran_since


@dataclass
class _Running:
    started: float  # monotonic seconds when Chromium said it started
    ends: float  # monotonic seconds when it will have finished


class AnimationClock:
    """When the finite animations started since a moment will all have ended."""

    def __init__(self) -> None:
        self.running: dict[str, _Running] = {}
        self.session: CDPSession | None = None

    async def install(self, page: Page) -> None:
        """Listen to the page's Animation domain; a page that refuses it just goes untracked."""
        try:
            session = await page.context.new_cdp_session(page)
            session.on("Animation.animationStarted", self._started)
            session.on("Animation.animationCanceled", self._canceled)
            await session.send("Animation.enable")
            self.session = session
        except Exception:
            self.session = None

    async def sync(self) -> None:
        """One round trip on the domain's session: every animation Chromium reported before it
        has been heard (events and replies of one session arrive in order), bounded."""
        if self.session is None:
            return
        try:
            await asyncio.wait_for(self.session.send("Animation.getPlaybackRate"), _SYNC_TIMEOUT_S)
        except Exception:
            pass

    def _started(self, event: dict[str, Any]) -> None:
        anim = event.get("animation") or {}
        left = _remaining_s(anim)
        if left is None:
            return
        now = time.monotonic()
        self.running[str(anim.get("id"))] = _Running(now, now + left)
        if len(self.running) > 500:  # an animation storm: keep the newest
            for key in sorted(self.running, key=lambda k: self.running[k].started)[:250]:
                del self.running[key]

    def _canceled(self, event: dict[str, Any]) -> None:
        self.running.pop(str(event.get("id")), None)

    def left_s(self, since: float) -> float:
        """Seconds until every finite animation that started at or after `since` has ended."""
        now = time.monotonic()
        for key in [k for k, r in self.running.items() if r.ends < now - _KEEP_S]:
            del self.running[key]
        return max((r.ends - now for r in self.running.values() if r.started >= since), default=0.0)

    def ran_since(self, since: float, moment: float) -> bool:
        """Whether an animation that started at or after `since` was still running at or after
        `moment` (a capture begun then may show it half-way)."""
        return any(r.started >= since and r.ends > moment for r in self.running.values())


def _remaining_s(anim: dict[str, Any]) -> float | None:
    """How long a just-started animation still runs, or None if it never ends or is too long."""
    source = anim.get("source") or {}
    rate = float(anim.get("playbackRate") or 1) or 1.0
    iterations = source.get("iterations")
    duration = float(source.get("duration") or 0)
    if iterations is None or not math.isfinite(float(iterations)) or duration <= 0:
        return None  # endless (a spinner, a ticker) or instant
    total_ms = (
        float(source.get("delay") or 0) + duration * float(iterations) + float(source.get("endDelay") or 0)
    )
    left = (total_ms - float(anim.get("currentTime") or 0)) / 1000 / abs(rate)
    if left <= 0 or left > _LONGEST_S:
        return None
    return left
