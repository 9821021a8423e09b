"""The recipe "an observation mode" needs one module and one registration.

tests/observation/glance_mode.py is such a module, written as one in `observation/modes/`
would be, and `modes.register` adds it the way `_MODULES` adds the built-in ones. On a real
page in real Chromium the harness picks it by name from the config: the prompt says what it
shows, the model input is what its `model_input` builds (one greyscale screenshot, no earlier
ones), and a click it names by a point lands — while the harness never names it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.observation import glance_mode
from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.config import make_config
from webfovea.observation import modes

ASYNC = pytest.mark.asyncio(loop_scope="session")
PKG = Path(__file__).resolve().parents[2] / "webfovea"

PAGE = """<!doctype html><html><body style="margin:0;background:rgb(250,60,60)">
<button id=b style="position:absolute;left:200px;top:150px;width:300px;height:120px"
 onclick="this.textContent='pressed'">Press</button></body></html>"""


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


@pytest.fixture
def registered():
    modes.register(glance_mode.MODE)
    try:
        yield
    finally:
        modes.unregister("glance")
    assert "glance" not in modes.MODES


def _grey(image) -> bool:  # noqa: ANN001 - a PIL image
    return all(r == g == b for r, g, b in image.convert("RGB").getdata())


@ASYNC
async def test_a_registered_mode_is_what_the_model_is_shown(session, site, registered) -> None:
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config(observation="glance"))
    try:
        await h.goto(site.url("/"))
        assert h.mode is glance_mode.MODE
        assert h.system_prompt.startswith("You are a web agent. You glance at one greyscale screenshot")
        obs = await h.observe()
        assert not _grey(obs.image)  # the page is red: the capture is in colour
        first = h.model_input("press the button")
        assert len(first.images) == 1 and _grey(first.images[0])

        sx = obs.image.size[0] / obs.shot.css_width
        sy = obs.image.size[1] / obs.shot.css_height
        point = f"<|box_start|>({350 * sx:.0f},{210 * sy:.0f})<|box_end|>"
        res = await h.step(f"Thought: press it\nAction: click(start_box='{point}')")
        assert res.error is None, res.error
        assert await page.locator("#b").text_content() == "pressed"

        await h.observe()
        second = h.model_input("press the button")
        assert len(second.images) == 1 and _grey(second.images[0])  # no earlier screenshot kept
        assert second.history and "click(" in second.history[0]
        assert second.feedback  # the shared feedback note reaches the mode's input
    finally:
        await h.release()
        await page.close()


def test_the_harness_never_names_it() -> None:
    for path in sorted((PKG / "harness").glob("*.py")) + [PKG / "execution" / "executor.py"]:
        assert "glance" not in path.read_text(encoding="utf-8"), path
