"""unchanged_view_text on real Chromium: after an action the pixel check found changed nothing,
the next input carries one sentence and no new image; after a real change, a new image."""

from __future__ import annotations

import pytest

from tests.support.servers import serve_pages
from tests.support.shared_browser import harness_on
from webfovea import Harness
from webfovea.observation.modes.base import UNCHANGED

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

PAGE = """<!doctype html><html><body style="margin:0;font:20px sans-serif">
<p style="position:absolute;left:40px;top:40px">Static text</p>
<button id="b" style="position:absolute;left:600px;top:400px;width:200px;height:80px"
 onclick="document.getElementById('out').textContent='Clicked!'">Press</button>
<p id="out" style="position:absolute;left:40px;top:600px"></p></body></html>"""


async def _click(h: Harness, x: int, y: int) -> None:
    await h.observe()
    h.model_input("t")
    res = await h.step(f"Thought: t\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>')")
    assert res.outcome == "no_effect", res.feedback  # the harness says so too


async def test_inert_click_sends_a_sentence_and_no_new_image(session):
    with serve_pages({"/": PAGE}) as srv:
        async with harness_on(session, srv.url("/"), observation="vision") as h:
            await _click(h, 1000, 100)  # blank area: nothing changes
            obs = await h.observe()
            assert obs.unchanged
            inp = h.model_input("t")
            assert UNCHANGED in (inp.feedback or "")
            assert all(img is not obs.image for img in inp.images)  # the new capture is not sent
            assert len(inp.images) == 1  # the window still ends with the view the model saw
            # the button (about 700x440 CSS px = 525x330 in the 1440x810 image) changes the page
            await h.step("Thought: t\nAction: click(start_box='<|box_start|>(525,330)<|box_end|>')")
            assert await h.page.locator("#out").text_content() == "Clicked!"
            obs = await h.observe()
            inp = h.model_input("t")
            assert not obs.unchanged and inp.images[-1] is obs.image and UNCHANGED not in (inp.feedback or "")


async def test_switch_off_sends_the_new_image(session):
    with serve_pages({"/": PAGE}) as srv:
        async with harness_on(
            session, srv.url("/"), observation="vision", disable=["unchanged_view_text"]
        ) as h:
            await _click(h, 1000, 100)
            obs = await h.observe()
            inp = h.model_input("t")
            assert inp.images[-1] is obs.image and UNCHANGED not in (inp.feedback or "")
