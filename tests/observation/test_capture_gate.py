"""Captures never overlap on a page: Chromium renders a scaled capture under a temporary
device-metrics override and puts back the one it found, so two in flight at once (or one
dropped mid-flight, then the next) left the page laid out at the capture size for good
(innerWidth 1920 -> 1440, with a resize event the page could see)."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.servers import serve_pages
from webfovea.actions.zoom import capture_region
from webfovea.config import make_config
from webfovea.observation.capture import Screen

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<script>window.sizes = []; addEventListener('resize', () => sizes.push(innerWidth));</script>
<p style='font:30px sans-serif'>hello</p>"""


async def test_overlapping_and_abandoned_captures_leave_the_page_as_it_was(session) -> None:
    with serve_pages({"/": PAGE}) as srv:
        page = await session.fresh_page()
        try:
            await page.goto(srv.url("/"))
            one, two = Screen(page, make_config()), Screen(page, make_config())
            shots = await asyncio.gather(
                *(s.capture() for s in (one, two, one, two, one, two)),
                capture_region(page, 10, 10, 200, 60, 4.0),
            )
            assert [s.css_width for s in shots[:-1]] == [1920.0] * 6
            assert shots[-1].size == (800, 240)
            for i in range(6):  # an early capture dropped mid-flight, then the next one
                early = asyncio.ensure_future(one.capture())
                await asyncio.sleep(0.004 * i)
                early.cancel()
                assert (await Screen(page, make_config()).capture()).css_width == 1920.0
            assert await page.evaluate("[innerWidth, sizes]") == [1920, []]
            assert one.fallbacks == two.fallbacks == 0
        finally:
            await asyncio.wait_for(page.close(), 10)
