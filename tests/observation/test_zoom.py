"""zoom(region) on real Chromium: the region of the screenshot, mapped to CSS pixels like a
click, comes back re-rendered at full resolution and magnified — exactly what a direct CDP
clip of that region at that scale shows, more than the screenshot's own pixels hold — goes
to the model with the next input only, is recorded beside the step's screenshots, and never
touches the page. A bad region gets one sentence and nothing else happens."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.actions.zoom import MAX_SCALE
from webfovea.config import make_config
from webfovea.driving.records import step_record
from webfovea.models.base import ModelReply
from webfovea.models.messages import anthropic_content, openai_messages
from webfovea.record.writer import TaskRecorder

ASYNC = pytest.mark.asyncio(loop_scope="session")

# A tall page scrolled to 1000 px; at 1100 px down, a 6 px line of text and a 40x20 block of
# four coloured quadrants (the crop's orientation and position); every click is counted.
QUADS = {"tl": (220, 30, 30), "tr": (20, 170, 60), "bl": (30, 60, 220), "br": (250, 140, 0)}
PAGE = """<!doctype html><html><body style="margin:0;height:4000px;background:#fff">
<div id=count>0</div>
<div id=tiny style="position:absolute;left:300px;top:1100px;font:6px sans-serif;color:#000;white-space:nowrap">
Net revenue 2025: 4,817,392.06 EUR (restated)</div>
<div id=quads style="position:absolute;left:700px;top:1100px;width:40px;height:20px;display:grid;
grid-template-columns:20px 20px">
<div style="background:rgb(220,30,30)"></div><div style="background:rgb(20,170,60)"></div>
<div style="background:rgb(30,60,220)"></div><div style="background:rgb(250,140,0)"></div></div>
<script>
let clicks = 0;
document.addEventListener('click', () => { clicks += 1; document.getElementById('count').textContent = clicks; });
window.scrollTo(0, 1000);
</script></body></html>"""


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


async def _harness(session, site, **overrides) -> Harness:
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config("webfovea", **overrides))
    await h.goto(site.url("/"))
    await page.wait_for_function("scrollY === 1000")
    return h


async def _css_box(h: Harness, selector: str) -> tuple[float, float, float, float]:
    b = await h.page.locator(selector).bounding_box()
    return b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]


def _model_region(obs, css: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """The CSS box in the sent image's pixels, rounded outwards (what a model would point at)."""
    x1, y1 = obs.shot.from_css(css[0], css[1])
    x2, y2 = obs.shot.from_css(css[2], css[3])
    return int(x1), int(y1), int(x2) + 1, int(y2) + 1


async def _direct_clip(page, x: float, y: float, w: float, h: float, scale: float) -> Image.Image:
    cdp = await page.context.new_cdp_session(page)
    try:
        sy = await page.evaluate("scrollY")
        shot = await cdp.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": {"x": x, "y": y + sy, "width": w, "height": h, "scale": scale}},
        )
    finally:
        await cdp.detach()
    return Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")


def _mean_diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@ASYNC
async def test_tiny_text_comes_back_magnified_at_full_resolution(session, site):
    h = await _harness(session, site)
    obs = await h.observe()
    assert obs.image.size == (1440, 810) and obs.shot.css_width == 1920  # the view maps 4:3
    region = _model_region(obs, await _css_box(h, "#tiny"))
    res = await h.step(f"Thought: the digits are too small\nAction: zoom(region='{region}')")
    assert res.outcome == "executed", res.feedback
    zoom = res.executed.outcome.response.attachments[0]
    info = zoom.info
    # The corners went through the view's mapping, as a click's point does.
    x1, y1, x2, y2 = info["region_css"]
    assert (x1, y1) == pytest.approx(obs.shot.to_css(region[0], region[1]), abs=0.01)
    assert (x2, y2) == pytest.approx(obs.shot.to_css(region[2], region[3]), abs=0.01)
    # Magnified as far as the cap allows (at most 8x), within the image the provider passes.
    w, hgt = x2 - x1, y2 - y1
    scale = min(1440 / w, 810 / hgt, MAX_SCALE)
    assert info["scale"] == pytest.approx(scale, rel=1e-3) and scale > 4
    assert abs(zoom.image.width - w * scale) <= 1 and abs(zoom.image.height - hgt * scale) <= 1
    assert (
        zoom.image.width <= 1440 and zoom.image.height <= 810 and info["image_size"] == list(zoom.image.size)
    )
    # The same pixels as a direct CDP clip of that CSS region at that scale ...
    direct = await _direct_clip(h.page, x1, y1, w, hgt, scale)
    assert direct.size == zoom.image.size
    assert _mean_diff(zoom.image, direct) < 1.0
    # ... and not the screenshot's pixels blown up: the 6 px glyphs were rendered again.
    sx1, sy1 = obs.shot.from_css(x1, y1)
    sx2, sy2 = obs.shot.from_css(x2, y2)
    blown_up = obs.image.crop((round(sx1), round(sy1), round(sx2), round(sy2))).resize(
        zoom.image.size, Image.Resampling.BICUBIC
    )
    assert _mean_diff(zoom.image, blown_up) > 5 * max(_mean_diff(zoom.image, direct), 0.2)
    # Nothing on the page was touched.
    assert await h.page.evaluate("[clicks, scrollY]") == [0, 1000]
    assert "zoom: the region" in res.feedback and "magnified" in res.feedback
    await h.page.close()


@ASYNC
async def test_the_crop_is_the_region_and_goes_with_the_next_input_only(session, site):
    h = await _harness(session, site)
    obs = await h.observe()
    region = _model_region(obs, await _css_box(h, "#quads"))
    res = await h.step(
        f"Action: zoom(region='<|box_start|>({region[0]},{region[1]}),({region[2]},{region[3]})<|box_end|>')"
    )
    assert res.outcome == "executed", res.feedback
    image = res.executed.outcome.response.attachments[0].image
    w, hgt = image.size
    # Each quadrant's colour where it belongs (sampled well inside it): the crop is in place.
    for name, (fx, fy) in {
        "tl": (0.25, 0.3),
        "tr": (0.75, 0.3),
        "bl": (0.25, 0.75),
        "br": (0.75, 0.75),
    }.items():
        got = image.getpixel((int(w * fx), int(hgt * fy)))
        assert all(abs(a - b) <= 6 for a, b in zip(got, QUADS[name], strict=True)), (name, got)
    await h.observe()
    inp = h.model_input("read the revenue")
    assert [a.image for a in inp.attachments] == [image]
    assert inp.images[-1].size == (1440, 810)  # the screenshot is still sent, and still last
    blocks = anthropic_content(inp)
    kinds = [b["type"] for b in blocks]
    assert kinds.count("image") == len(inp.images) + 1
    assert blocks[kinds.index("image") - 1]["text"].startswith(
        "Zoomed region"
    )  # labelled, before the screenshots
    parts = openai_messages(inp)[1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert len(urls) == len(inp.images) + 1
    crop = Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1])))
    assert crop.size == image.size
    await h.step("Action: wait()")
    await h.observe()
    assert h.model_input("t").attachments == []  # one step only
    await h.page.close()


@ASYNC
async def test_a_region_past_the_edge_is_clipped_to_the_viewport(session, site):
    h = await _harness(session, site)
    await h.observe()
    res = await h.step("Action: zoom(region='[1400, 780, 1600, 900]')")
    assert res.outcome == "executed", res.feedback
    info = res.executed.outcome.response.attachments[0].info
    assert info["clipped"] is True and "clipped to the screenshot" in res.feedback
    x1, y1, x2, y2 = info["region_css"]
    assert (x1, y1) == pytest.approx((1400 * 4 / 3, 780 * 4 / 3), abs=0.01) and (x2, y2) == (1920, 1080)
    await h.page.close()


@ASYNC
@pytest.mark.parametrize("region", ["(500,300,400,350)", "(500,300,600,300)", "(2000,900,2100,950)"])
async def test_a_bad_region_gets_one_sentence_and_nothing_else(session, site, region):
    h = await _harness(session, site)
    await h.observe()
    res = await h.step(f"Action: zoom(region='{region}')")
    assert res.outcome == "rejected"
    assert res.executed.outcome.response.attachments == []
    assert len(re.findall(r"[.!?](?:\s|$)", res.feedback)) == 1 and res.feedback.endswith(
        "nothing was captured."
    )
    assert h.executor.budgets.left("zoom", 10) == 10  # refunded: nothing happened
    assert await h.page.evaluate("[clicks, scrollY]") == [0, 1000]
    await h.observe()
    assert h.model_input("t").attachments == []
    await h.page.close()


@ASYNC
async def test_structured_mode_sends_the_crop_alone(session, site):
    h = await _harness(session, site, observation="structured")
    obs = await h.observe()
    region = _model_region(obs, await _css_box(h, "#tiny"))
    res = await h.step(f"Action: zoom(region='{region}')")
    assert res.outcome == "executed", res.feedback
    await h.observe()
    inp = h.model_input("t")
    assert inp.images == [] and len(inp.attachments) == 1
    await h.page.close()


@ASYNC
async def test_the_step_record_notes_the_zoom_and_saves_the_crop(session, site, tmp_path):
    h = await _harness(session, site)
    await h.observe()
    reply = "Action: zoom(region='(200,300,500,360)')"
    res = await h.step(reply)
    rec = step_record(1, ModelReply(reply), res, TaskRecorder(tmp_path))
    assert rec.zoom is not None and rec.zoom["file"] == "step_001_zoom.png"
    saved = Image.open(tmp_path / "step_001_zoom.png").convert("RGB")
    assert list(saved.size) == rec.zoom["image_size"]
    assert _mean_diff(saved, res.executed.outcome.response.attachments[0].image) == 0
    assert rec.zoom["region"] == [200, 300, 500, 360] and rec.zoom["region_css"] == pytest.approx(
        [200 * 4 / 3, 300 * 4 / 3, 500 * 4 / 3, 360 * 4 / 3], abs=0.01
    )
    # The marked screenshot outlines the zoomed region in red; the sent one is untouched there.
    marked = Image.open(tmp_path / rec.screenshot_marked).convert("RGB")
    sent = Image.open(tmp_path / rec.screenshot).convert("RGB")
    assert marked.getpixel((200, 330)) == (230, 20, 20) and sent.getpixel((200, 330)) == (255, 255, 255)
    assert marked.getpixel((350, 330)) == sent.getpixel((350, 330))
    other = await h.step("Action: wait()")
    assert step_record(2, ModelReply("Action: wait()"), other, TaskRecorder(tmp_path / "b")).zoom is None
    await h.page.close()


@ASYNC
async def test_a_0_1000_model_zooms_in_its_own_space(session, site):
    h = await _harness(session, site, coordinate_convention="norm1000")
    await h.observe()
    res = await h.step("Action: zoom(region='(250,500,500,750)')")
    assert res.outcome == "executed", res.feedback
    info = res.executed.outcome.response.attachments[0].info
    assert info["region_css"] == pytest.approx([480, 540, 960, 810], abs=0.01)  # of 1920x1080 CSS px
    assert res.executed.outcome.response.attachments[0].image.size == (
        1440,
        810,
    )  # 480x270 CSS px at 3x fills the cap
    await h.page.close()
