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

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = "<p>hello</p>"


async def test_an_unanswered_capture_is_asked_again_then_reported(session) -> None:
    with serve_pages({"/": PAGE}) as srv:
        page = await session.fresh_page()
        try:
            await page.goto(srv.url("/"))
            screen = Screen(page, make_config())
            screen.timeout_s = 1.0
            shot = await screen.capture()  # before the page freezes: answered at once
            assert shot.image.size[0] > 0 and screen.retries == 0
            await page.evaluate(
                "setTimeout(() => { while (true) {} }, 0)"
            )  # the main thread never yields again
            await asyncio.sleep(0.3)
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


FORM = """<form action="/next" method="get"><input name="q" value="x">
<button id="go" style="width:300px;height:100px">Send</button></form>"""
NEXT = "<p style='font:40px sans-serif'>next page</p>"


async def test_a_capture_that_meets_a_commit_comes_back(session) -> None:
    """Captures asked for just as a form submission commits its new document: each is answered
    (the lost ones asked again at once), none waits out the full timeout."""
    with serve_pages({"/": FORM, "/next": NEXT}) as srv:
        page = await session.fresh_page()
        try:
            screen = Screen(page, make_config())
            slowest = 0.0
            for _ in range(8):
                await page.goto(srv.url("/"))
                await page.click("#go", no_wait_after=True)
                t0 = time.monotonic()
                shot = await asyncio.wait_for(
                    screen.capture(), 30
                )  # a hang fails here, not at the suite's limit
                slowest = max(slowest, time.monotonic() - t0)
                assert shot.image.size[0] > 0
                await page.wait_for_url("**/next?q=x")
            assert slowest < screen.timeout_s, (slowest, screen.retries, screen.nav_retries)
        finally:
            await asyncio.wait_for(page.close(), 10)


BUTTON = "<button id=b style='width:300px;height:100px' onclick=\"this.textContent='pressed'\">press</button>"


async def test_a_step_record_says_which_captures_were_asked_again(session, tmp_path) -> None:
    """A capture that waited out its bound while the page's main thread was busy, then came back:
    the next step's result and record carry it; a step whose captures came back at once, nothing."""
    from webfovea.driving.records import step_record
    from webfovea.harness import Harness
    from webfovea.models.base import ModelReply
    from webfovea.record.writer import TaskRecorder

    with serve_pages({"/": BUTTON}) as srv:
        page = await session.fresh_page()
        try:
            await page.goto(srv.url("/"))
            h = Harness(page, make_config())
            await h.start()
            await h.observe()
            first = await h.step("click(150, 50)")
            assert first.capture is None
            assert await page.inner_text("#b") == "pressed"
            # Busy 5 s, then free: the geometry read gives up at 2.2 s, the first request at 4.2 s,
            # the second is answered at ~5 s (each bound 2 s).
            h.screen.timeout_s = 2.0
            await page.evaluate(
                "setTimeout(() => { const t = performance.now(); "
                "while (performance.now() - t < 5000) {} }, 0)"
            )
            await asyncio.sleep(0.2)
            await asyncio.wait_for(h.screen.capture(), 30)  # as look/zoom capture: no liveness probe first
            second = await h.step("scroll(150, 50, down)")
            assert second.capture is not None and second.capture["retries"] >= 1, second.capture
            rec = step_record(2, ModelReply(text="scroll(150, 50, down)"), second, TaskRecorder(tmp_path))
            assert rec.capture == second.capture
            third = await h.step("scroll(150, 50, up)")
            assert third.capture is None  # counted once, at the step it happened before
        finally:
            await asyncio.wait_for(page.close(), 10)
