"""Template matching on real Chromium screenshots: widgets at CSS zoom 0.75-1.5, look-alikes beside.

The template is the widget's element screenshot at zoom 1 (tests/support/widget_scenes.py); the
scene shows it at four sizes and places, rasterised again by Chromium at each, plus a
look-alike of the same family. Every true widget is found (box IoU >= 0.8 with the DOM's box)
and nothing else is (the date picker, whose grid of numbers Chromium lays out again at each
zoom, is measured in benchmarks/bench_templates.py, not held to this). Then find_template, the action, reports the banner's button as a start_box
that a click lands on.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.support.servers import serve_pages
from tests.support.widget_scenes import Placed, alone, page, scene
from webfovea import Harness
from webfovea.config import make_config
from webfovea.vision.matching import TemplateError, find
from webfovea.vision.templates import TemplatesError, load_templates

ASYNC = pytest.mark.asyncio(loop_scope="session")
SCALES = (0.75, 1.0, 1.25, 1.5)
KINDS = ("cookie_banner", "paginator")  # the date picker's numbers reflow under zoom: the benchmark has it

BANNER_CLICKED = """<script>
document.querySelector('[data-widget] .accept').addEventListener('click', () => {
  document.querySelector('[data-widget]').remove();
  document.title = 'accepted';
});
</script>"""


def _pages() -> dict[str, str]:
    out = {f"/alone/{k}": alone(k) for k in KINDS}
    out.update({f"/scene/{k}": page(scene(k, 1, SCALES)) for k in KINDS})
    banner = page([Placed("cookie_banner", 1.25, 600, 420), Placed("paginator", 1.0, 40, 60)])
    out["/banner"] = banner.replace("</body>", BANNER_CLICKED + "</body>")
    return out


@pytest.fixture(scope="module")
def site():
    with serve_pages(_pages()) as srv:
        yield srv


async def _template(pg, site, kind: str) -> Image.Image:
    await pg.goto(site.url(f"/alone/{kind}"))
    png = await pg.locator(f'[data-widget="{kind}"] > div > div').screenshot()
    return Image.open(io.BytesIO(png)).convert("RGB")


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / union


@ASYNC
@pytest.mark.parametrize("kind", KINDS)
async def test_each_size_is_found_and_the_lookalike_is_not(session, site, kind):
    pg = await session.fresh_page()
    try:
        template = await _template(pg, site, kind)
        await pg.goto(site.url(f"/scene/{kind}"))
        truth = await pg.eval_on_selector_all(
            "[data-widget] > div > div",
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })",
        )
        shot = Image.open(io.BytesIO(await pg.screenshot())).convert("RGB")
    finally:
        await pg.close()
    assert len(truth) == len(SCALES)
    matches = find(shot, template, limit=6)
    hit = [max((_iou(m.box, t) for t in truth), default=0.0) for m in matches]
    assert all(h >= 0.8 for h in hit), [(m.box, m.score) for m in matches]  # no look-alike, no stray box
    assert len(matches) == len(truth), [(m.box, m.score, m.scale) for m in matches]
    scales = sorted(m.scale for m in matches)
    assert all(abs(a - b) < 0.03 for a, b in zip(scales, SCALES, strict=True)), scales


def test_bad_templates_are_refused_with_a_reason(tmp_path: Path):
    with pytest.raises(TemplateError, match="no contrast"):
        find(Image.new("RGB", (200, 100), "white"), Image.new("RGB", (20, 20), "grey"))
    with pytest.raises(TemplateError, match="6 px"):
        find(Image.new("RGB", (200, 100), "white"), Image.new("RGB", (4, 20), "grey"))
    (tmp_path / "t.toml").write_text('[templates.x]\nimage = "missing.png"\nwhat = "x"\n')
    with pytest.raises(TemplatesError, match="cannot read the image"):
        load_templates(tmp_path / "t.toml")
    (tmp_path / "t.toml").write_text('[templates.x]\nimage = "a.png"\nwhat = "x"\nclick = [2, 0]\n')
    Image.new("RGB", (30, 30), "red").save(tmp_path / "a.png")
    with pytest.raises(TemplatesError, match="fractions"):
        load_templates(tmp_path / "t.toml")


@ASYNC
async def test_find_template_gives_a_point_a_click_lands_on(session, site, tmp_path):
    pg = await session.fresh_page()
    await pg.goto(site.url("/alone/cookie_banner"))
    banner = pg.locator('[data-widget="cookie_banner"] > div > div')
    (tmp_path / "banner.png").write_bytes(await banner.screenshot())
    b, a = await banner.bounding_box(), await banner.locator(".accept").bounding_box()
    assert b is not None and a is not None
    fx = (a["x"] + a["width"] / 2 - b["x"]) / b["width"]
    fy = (a["y"] + a["height"] / 2 - b["y"]) / b["height"]
    (tmp_path / "templates.toml").write_text(
        '[templates.accept]\nimage = "banner.png"\nwhat = "the cookie banner\'s Accept all button"\n'
        f"click = [{fx:.3f}, {fy:.3f}]\n"
    )
    h = await Harness.on_page(pg, make_config("webfovea", templates=str(tmp_path / "templates.toml")))
    assert "find_template(name=" in h.system_prompt
    await h.goto(site.url("/banner"))
    await h.observe()
    res = await h.step("Thought: find the button\nAction: find_template(name='nope')")
    assert "no template 'nope'" in res.feedback and "accept (the cookie banner's Accept all" in res.feedback
    await h.observe()
    res = await h.step("Thought: find the button\nAction: find_template(name='accept')")
    assert res.outcome == "executed", res.feedback
    assert "found at (" in res.feedback and "score" in res.feedback, res.feedback
    point = res.feedback.split("found at (", 1)[1].split(")", 1)[0]
    await h.observe()
    res = await h.step(f"Thought: accept\nAction: click(start_box='({point})')")
    assert await pg.title() == "accepted", res.feedback
    await h.close()
