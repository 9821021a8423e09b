"""The model-conventions row drives the screenshot cap: the image the harness really sends
(real Chromium, a real local page) is one the row's provider passes to the model unscaled."""

from __future__ import annotations

import pytest
from playwright.async_api import BrowserContext

from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.models.conventions import conventions_by_family, conventions_for, families
from webfovea.observation.sizing import harness_config

pytestmark = pytest.mark.asyncio(loop_scope="session")

# One model spec per row of the table, and one no row matches (the default row). A new
# row without an entry here fails test_every_row_has_a_spec.
SPEC_OF = {
    "ui-tars-1.5": "openai:ByteDance-Seed/UI-TARS-1.5-7B",
    "ui-tars": "openai:ui-tars-72b-dpo",
    "qwen2.5-vl": "openai:Qwen/Qwen2.5-VL-72B-Instruct",
    "qwen-vl-norm1000": "openai:Qwen/Qwen3-VL-8B-Instruct",
    "qwen2-vl": "openai:Qwen/Qwen2-VL-7B-Instruct",
    "claude": "anthropic:claude-sonnet-4-5",
    "claude-opus-4.5": "anthropic:claude-opus-4-6",
    "claude-opus-4.7": "anthropic:claude-opus-4-7",
    "claude-sonnet-4.6": "anthropic:claude-sonnet-4-6",
    "claude-haiku-4.5": "anthropic:claude-haiku-4-5",
    "openai-computer-use": "openai:computer-use-preview",
    "openai-computer": "openai:gpt-5.4",
    "gemini": "openai:gemini-2.5-pro",
    "openai-reasoning": "openai:o3",
    "gpt-4o": "openai:gpt-4o",
    "default": "openai:llava-1.6",
}
VIEWPORTS = [(1920, 1080), (1366, 768), (1280, 1000)]
PAGE = """<!doctype html><html><body style="margin:0;background:linear-gradient(90deg,#fff,#48f)">
<button id=b style="position:absolute;left:70%;top:60%;width:90px;height:30px"
 onclick="this.textContent='hit'">Go</button></body></html>"""


@pytest.mark.asyncio(loop_scope="session")
async def test_every_row_has_a_spec():
    assert sorted(SPEC_OF) == sorted(families())
    for family, spec in SPEC_OF.items():
        assert conventions_for(spec).family == family


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


async def _context(session: BrowserSession, viewport: tuple[int, int], dpr: float = 1) -> BrowserContext:
    return await session.browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=dpr
    )


async def _harness_on(ctx: BrowserContext, url: str, config: HarnessConfig) -> Harness:
    # The page is loaded before the harness wraps it: the navigation settle of h.goto()
    # costs a second per case and is not what these tests are about.
    page = await ctx.new_page()
    await page.goto(url)
    return await Harness.on_page(page, config)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
async def test_sent_image_is_not_resized_by_the_rows_provider(session, site, viewport):
    ctx = await _context(session, viewport)
    try:
        for family, spec in SPEC_OF.items():
            row = conventions_by_family(family)
            config = harness_config(model=spec, viewport=viewport)
            h = await _harness_on(ctx, site.url("/"), config)
            page = h.page
            size = (await h.observe()).image.size
            await page.close()
            # The provider passes it as it is: the model answers in the space we sent.
            assert row.provider_size(*size) == size, (family, viewport, size, row.provider_size(*size))
            assert config.conventions == family
            assert config.coordinate_convention == row.coordinate_space
            # A row only lowers the default cap of 1440x810; and it lowers it only as far as needed.
            assert size[0] <= 1440 and size[1] <= 810
            if family in ("default", "claude", "gemini"):  # providers that accept all of 1440x810
                scale = min(1.0, 1440 / viewport[0], 810 / viewport[1])
                assert size == (round(viewport[0] * scale), round(viewport[1] * scale))
    finally:
        await ctx.close()


async def test_known_sizes_at_1920x1080(session, site):
    """The sizes a reader can check against the providers' documentation."""
    ctx = await _context(session, (1920, 1080))
    try:
        sent = {}
        for family in ("default", "claude", "gpt-4o", "qwen2.5-vl"):
            h = await _harness_on(ctx, site.url("/"), harness_config(model=SPEC_OF[family]))
            page = h.page
            sent[family] = (await h.observe()).image.size
            await page.close()
    finally:
        await ctx.close()
    assert sent == {
        "default": (1440, 810),
        "claude": (1440, 810),
        "gpt-4o": (1365, 768),
        "qwen2.5-vl": (1344, 756),
    }
    # Sending a 1440x810 image to GPT-4o is the failure class: it arrives at 1365x768.
    assert conventions_by_family("gpt-4o").provider_size(1440, 810) == (1365, 768)
    assert conventions_by_family("qwen2.5-vl").provider_size(1440, 810) == (1428, 812)


async def test_hidpi_capture_still_fits(session, site):
    """The capture is in device pixels; the derived cap holds at a device pixel ratio of 2."""
    ctx = await _context(session, (1366, 768), dpr=2)
    try:
        for family in ("gpt-4o", "qwen2.5-vl", "default"):
            h = await _harness_on(
                ctx, site.url("/"), harness_config(model=SPEC_OF[family], viewport=(1366, 768))
            )
            page = h.page
            obs = await h.observe()
            await page.close()
            assert obs.shot.dpr == 2
            assert conventions_by_family(family).fits(*obs.image.size), (family, obs.image.size)
    finally:
        await ctx.close()


async def test_launch_with_model_and_cap(site):
    """`Harness.launch(url, model=SPEC, cap=...)`: the row picks the cap; cap= only raises the bound."""
    async with Harness.launch(site.url("/"), model="openai:gpt-4o") as h:
        assert (await h.observe()).image.size == (1365, 768)
        assert h.config.conventions == "gpt-4o"
        # The click lands: coordinates in the space of the sent image map back to the button.
        box = await h.page.locator("#b").bounding_box()
        x = round((box["x"] + box["width"] / 2) * 1365 / 1920)
        y = round((box["y"] + box["height"] / 2) * 768 / 1080)
        res = await h.step(f"Thought: go\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>')")
        assert res.error is None and await h.page.inner_text("#b") == "hit"
    # A model that accepts more gets more only when asked.
    big = harness_config(model="openai:llava-1.6", cap="1920x1080")
    assert (big.screenshot_cap_width, big.screenshot_cap_height) == (1920, 1080)
    claude = harness_config(model="anthropic:claude-opus-4-6", cap=(1920, 1080))
    w, h_ = claude.screenshot_cap_width, claude.screenshot_cap_height
    assert conventions_by_family("claude").fits(w, h_) and w * h_ > 1440 * 810
