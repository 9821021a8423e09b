"""A page cannot steer the harness: overriding geometry, hit-testing, animation frames or the
clock in its own JavaScript changes nothing the harness does or reports."""

import time

import pytest

from tests.support.servers import two_origins
from webfovea.config import make_config
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Lies a hostile page tells its own JavaScript world. (Date.now is left alone here: the settle
# wait reads it in the page's world, and that wait is not made unsteerable here.)
LIES = """<script>
const lie = (o, k, v) => Object.defineProperty(o, k, {get: () => v, configurable: true});
lie(window, 'innerWidth', 960); lie(window, 'innerHeight', 0); lie(window, 'devicePixelRatio', 3);
const decoys = () => [document.getElementById('decoy_field'), document.getElementById('decoy')];
Document.prototype.elementsFromPoint = function () { return decoys(); };
Document.prototype.elementFromPoint = function () { return decoys()[0]; };
ShadowRoot.prototype.elementsFromPoint = function () { return decoys(); };
window.requestAnimationFrame = function () { return 1; };
performance.now = () => 0;
window.getComputedStyle = () => ({cursor: 'pointer', opacity: '1', visibility: 'visible'});
</script>"""

MAIN = f"""<html><head>{LIES}</head><body style="margin:0;font:16px sans-serif">
<div id=log>none</div>
<button id=real style="position:absolute;left:1500px;top:880px;width:240px;height:90px"
  onclick="document.getElementById('log').textContent='real clicked'">Real</button>
<button id=decoy style="position:absolute;left:750px;top:440px;width:240px;height:90px"
  onclick="document.getElementById('log').textContent='decoy clicked'">Decoy</button>
<input id=name style="position:absolute;left:300px;top:200px;width:400px;height:40px">
<input id=decoy_field style="position:absolute;left:-5000px;top:0;width:10px">
<iframe id=oop src="FRAME/form" style="position:absolute;left:300px;top:400px;width:500px;height:200px;border:0"></iframe>
<div style="height:6000px"></div></body></html>"""

FORM = f"""<html><head>{LIES}</head><body style="margin:0">
<input id=inner style="position:absolute;left:20px;top:20px;width:300px;height:40px">
<input id=decoy_field style="position:absolute;left:-5000px"><button id=decoy>x</button></body></html>"""


@pytest.fixture(scope="module")
def site():
    main = {"/": MAIN}
    with two_origins(main, {"/form": FORM}) as (a, b):
        main["/"] = MAIN.replace("FRAME", f"http://localhost:{b.port}")  # out-of-process frame
        yield a


async def open_page(session, site):
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config())
    await h.goto(site.url("/"))
    for _ in range(100):
        if len(page.frames) > 1 and page.frames[1].url.endswith("/form"):
            break
        await page.wait_for_timeout(20)
    await page.frames[1].wait_for_load_state("load")
    return h


def model(obs, x, y):
    """The point a model looking at the sent image gives for CSS pixel (x, y)."""
    w, h = obs.image.size
    return f"'<|box_start|>({x * w / 1920:.0f},{y * h / 1080:.0f})<|box_end|>'"


async def test_lying_geometry_neither_crashes_nor_moves_the_click(session, site):
    h = await open_page(session, site)
    obs = await h.observe()  # innerWidth 960 / innerHeight 0 once divided by zero
    assert (obs.shot.css_width, obs.shot.css_height) == (1920, 1080) and obs.image.size == (1440, 810)
    res = await h.step(f"Thought: t\nAction: click(start_box={model(obs, 1620, 925)})")
    assert await h.page.text_content("#log") == "real clicked"
    assert res.executed.outcome.point == pytest.approx((1620, 925), abs=2)


async def test_fill_types_into_the_field_under_the_point_not_the_decoy(session, site):
    h = await open_page(session, site)
    obs = await h.observe()
    res = await h.step(f"Thought: t\nAction: fill(start_box={model(obs, 500, 220)}, content='Ottawa')")
    assert await h.page.input_value("#name") == "Ottawa"
    assert await h.page.input_value("#decoy_field") == ""
    assert "now contains 'Ottawa'" in res.feedback


async def test_fill_inside_a_lying_out_of_process_frame(session, site):
    h = await open_page(session, site)
    obs = await h.observe()
    res = await h.step(f"Thought: t\nAction: fill(start_box={model(obs, 470, 440)}, content='Lyon')")
    frame = h.page.frames[1]
    assert await frame.input_value("#inner") == "Lyon" and await frame.input_value("#decoy_field") == ""
    assert "now contains 'Lyon'" in res.feedback


async def test_scroll_returns_when_animation_frames_never_come(session, site):
    h = await open_page(session, site)
    obs = await h.observe()
    t0 = time.monotonic()
    res = await h.step(f"Thought: t\nAction: scroll(start_box={model(obs, 1000, 700)}, direction='down')")
    # bounded by the settle wait's own cap, never by the page's requestAnimationFrame
    assert time.monotonic() - t0 < make_config().settle_max_ms / 1000 + 2
    assert await h.page.evaluate("window.scrollY") > 0 and res.error is None


async def test_no_change_note_names_the_real_element(session, site):
    h = await open_page(session, site)
    obs = await h.observe()
    res = await h.step(f"Thought: t\nAction: click(start_box={model(obs, 100, 700)})")
    # the page claims everything is the hidden decoy field; the note names what is really there
    assert "No detectable change" in res.feedback and "is on a <div> (not clickable)" in res.feedback, (
        res.feedback
    )
