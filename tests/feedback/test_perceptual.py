"""The perceptual change measure on canvas charts drawn in real Chromium: a subtle change is
seen where the grid misses it, rendering noise is not; and a canvas redrawn by a click that the
DOM cannot see is reported as a change with `change_detection="perceptual"`."""

from __future__ import annotations

import pytest

from tests.support.canvas_scenes import PAGE, pair
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.feedback.perceptual import compare_perceptual
from webfovea.feedback.pixels import compare
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")
CSS = (1920.0, 1080.0)

# a click on the chart recolours one heat-map cell by 15 levels: nothing in the DOM changes
# (no focus moves: the input is not focused on this page, the canvas takes no focus)
CLICK_PAGE = PAGE.replace("document.getElementById('q').focus();", "").replace(
    "draw('bar',1,'base');",
    "draw('heat',2,'base');document.getElementById('c').onclick=()=>draw('heat',2,'recolour');",
)


async def test_subtle_changes_are_seen_and_noise_is_not(session):
    with serve_pages({"/": PAGE}) as srv:
        h = await Harness.on_page(await session.fresh_page(), make_config())
        await h.goto(srv.url("/"))
        recoloured = await pair(h, "heat", 3, "recolour")
        assert compare_perceptual(*recoloured, CSS)
        assert not compare(*recoloured, CSS)  # 15 levels: under the grid's 24
        assert compare_perceptual(*await pair(h, "bar", 3, "taller"), CSS)
        for kind, noise in (("bar", "shift"), ("line", "aa"), ("heat", "jpeg")):
            before, after = await pair(h, kind, 3, noise)
            assert before.tobytes() != after.tobytes(), noise  # the pixels did move
            assert not compare_perceptual(before, after, CSS), noise
        assert compare(*await pair(h, "bar", 3, "shift"), CSS)  # the grid calls the shift a change


@pytest.mark.parametrize("method", ["perceptual", "grid"])
async def test_a_canvas_recoloured_by_a_click_is_a_change(session, method):
    with serve_pages({"/": CLICK_PAGE}) as srv:
        h = await Harness.on_page(await session.fresh_page(), make_config(change_detection=method))
        await h.goto(srv.url("/"))
        obs = await h.observe()
        box = await h.page.locator("#c").bounding_box()
        assert box is not None and obs.image is not None
        sx = obs.image.size[0] / obs.shot.css_width
        x, y = (box["x"] + 340) * sx, (box["y"] + 190) * sx  # the recoloured cell
        res = await h.step(
            f"Thought: t\nAction: click(start_box='<|box_start|>({x:.0f},{y:.0f})<|box_end|>')"
        )
        text = res.feedback
        if method == "perceptual":
            assert res.outcome == "executed", text
            assert "no detectable change" not in text.lower() and "changed" in text.lower()
        else:  # today's grid: the 15-level recolour is under its threshold
            assert res.outcome == "no_effect", text
