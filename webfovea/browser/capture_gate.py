"""One screenshot request in flight per page, whoever asks (the step's capture, an early
capture, a zoom crop).

Chromium renders a scaled capture (`Page.captureScreenshot` with `clip.scale`) under a
temporary device-metrics override and, when done, puts back the override it found. Two such
requests in flight on one page at once leave the second's "found" override in place: the page
stays laid out at the capture's size for good (measured on Chromium 156, full and headless
shell: innerWidth 1920 -> 1440 and a resize event, after two overlapping captures or after an
early capture dropped mid-flight and the next one started). So a request waits — bounded — for
the page's previous request to come back, even when whoever asked for that one stopped waiting
(a dropped early capture, a caller cancelled): giving up on an answer never cancels Chromium's
work, only our wait for it.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from playwright.async_api import CDPSession, Page


class _Gate:
    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.last: asyncio.Future[Any] | None = None  # holds no page: the table's key can die


_GATES: weakref.WeakKeyDictionary[Page, _Gate] = weakref.WeakKeyDictionary()


async def send_capture(
    page: Page, cdp: CDPSession, params: dict[str, Any], wait_s: float
) -> asyncio.Future[Any]:
    """Start `Page.captureScreenshot` with `params` on `cdp` once the page's previous request
    has come back (or `wait_s` has passed: a request Chromium never answers must not block
    every later one). Returns the request's future; the caller bounds its own wait on it."""
    gate = _GATES.get(page)
    if gate is None:
        gate = _GATES[page] = _Gate()
    async with gate.lock:
        prev = gate.last
        if prev is not None and not prev.done():
            await asyncio.wait({prev}, timeout=wait_s)
        send = asyncio.ensure_future(cdp.send("Page.captureScreenshot", params))
        send.add_done_callback(_consume)
        gate.last = send
    return send


def _consume(fut: asyncio.Future[Any]) -> None:
    """An abandoned request's error is nobody's to raise ("Future exception was never retrieved")."""
    if not fut.cancelled():
        fut.exception()
