"""A screenshot the browser never answers is bounded: asked again on a fresh CDP session, then
reported as an unresponsive page — it never hangs the step. (Chromium leaves a capture
unanswered when the document is replaced while it waits for a frame, and whenever the page's
main thread never yields.)"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.servers import serve_pages
from webfovea.browser.world import PageUnresponsive
from webfovea.config import make_config
from webfovea.observation.capture import Screen

pytestmark = pytest.mark.asyncio(loop_scope="module")

BUSY_LATER = "<p>hello</p><script>setTimeout(() => { while (true) {} }, 400)</script>"


async def test_an_unanswered_capture_is_asked_again_then_reported(session) -> None:
    with serve_pages({"/": BUSY_LATER}) as srv:
        page = await session.fresh_page()
        try:
            await page.goto(srv.url("/"))
            screen = Screen(page, make_config())
            screen.timeout_s = 1.0
            shot = await screen.capture()  # before the page freezes: answered at once
            assert shot.image.size[0] > 0 and screen.retries == 0
            await asyncio.sleep(0.8)
            t0 = time.monotonic()
            with pytest.raises(PageUnresponsive, match="did not answer 2 screenshot requests"):
                await screen.capture()
            assert screen.retries == 2  # the first on the old session, the second on a fresh one
            assert time.monotonic() - t0 < 10
        finally:
            try:
                await asyncio.wait_for(page.close(), 5)
            except Exception:
                pass  # a frozen renderer; the module's browser goes down with the fixture
