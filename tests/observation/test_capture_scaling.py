"""`capture_scaling`: the browser renders the capture at the sent size, or Pillow shrinks a
full-size one. Both must show the same viewport at the same size, on real Chromium."""

import io

import pytest
from PIL import Image, ImageChops
from pydantic import ValidationError

from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.observation.capture import Screen

on_chromium = pytest.mark.asyncio(loop_scope="session")

# Distinct bands down a tall page: a capture of the wrong region cannot look like the right one.
BANDS = "".join(
    f"<div style='height:300px;background:hsl({i * 37 % 360},70%,{30 + i % 3 * 20}%);font:28px sans-serif'>band {i}</div>"
    for i in range(20)
)
PAGE = f"<html><body style='margin:0'>{BANDS}</body></html>"


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0-255."""
    hist = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).histogram()
    total = sum(i * n for c in range(3) for i, n in enumerate(hist[c * 256 : (c + 1) * 256]))
    return total / (3 * a.size[0] * a.size[1])


async def two_captures(page):
    browser = await Screen(page, make_config(capture_scaling="browser")).capture()
    python = await Screen(page, make_config(capture_scaling="python")).capture()
    return browser, python


@on_chromium
async def test_browser_and_python_scaling_show_the_same_viewport(session):
    with serve_pages({"/": PAGE}) as srv:
        page = await session.fresh_page()
        await page.goto(srv.url("/"))
        await page.mouse.wheel(0, 1700)
        await page.wait_for_function("scrollY >= 1700")
        browser, python = await two_captures(page)
        assert browser.image.size == python.image.size == (1440, 810)
        assert (browser.css_width, browser.css_height, browser.dpr) == (
            python.css_width,
            python.css_height,
            1.0,
        )
        # The scrolled viewport, not the top of the document: the clip is placed where the page is.
        assert mean_diff(browser.image, python.image) < 6
        await page.evaluate("scrollTo(0, 0)")
        await page.wait_for_function("scrollY === 0")
        top = await Screen(page, make_config(capture_scaling="python")).capture()
        assert mean_diff(browser.image, top.image) > 20  # the check above can tell regions apart


@on_chromium
async def test_high_dpi_page_keeps_its_pixel_ratio(session):
    """A scaled clip would reset a dpr-2 page to ratio 1 (Chromium clears the device-metrics
    override after the capture): such a page is captured full size and shrunk in Python."""
    with serve_pages({"/": PAGE}) as srv:
        ctx = await session.browser.new_context(
            viewport={"width": 1920, "height": 1080}, device_scale_factor=2
        )
        try:
            page = await ctx.new_page()
            await page.goto(srv.url("/"))
            browser, python = await two_captures(page)
            assert await page.evaluate("devicePixelRatio") == 2
            assert browser.dpr == python.dpr == 2
            assert browser.image.size == python.image.size == (1440, 810)
        finally:
            await ctx.close()


@on_chromium
async def test_unscaled_viewport_is_captured_as_is(session):
    with serve_pages({"/": PAGE}) as srv:
        page = await session.fresh_page()
        await page.set_viewport_size({"width": 1200, "height": 700})
        try:
            await page.goto(srv.url("/"))
            browser, python = await two_captures(page)
            assert browser.image.size == python.image.size == (1200, 700)
            assert mean_diff(browser.image, python.image) < 1
            # same pixels, same PNG: the pixel check can skip the comparison; without feedback
            # notes nothing uses the digest, so none is computed
            assert browser.digest is not None and browser.digest == python.digest
            quiet = await Screen(page, make_config(disable=["feedback_notes"])).capture()
            assert quiet.digest is None
        finally:
            await page.set_viewport_size({"width": 1920, "height": 1080})


def test_capture_scaling_takes_two_values():
    assert make_config().capture_scaling == "browser"
    assert make_config(capture_scaling="python").capture_scaling == "python"
    with pytest.raises(ValidationError):
        make_config(capture_scaling="gpu")


@on_chromium
async def test_a_capture_keeps_its_png_only_when_the_image_is_its_pixels(session):
    """The task folder writes `Shot.png` as it is (no second encoding): it must decode to exactly
    the image the model is sent, and be absent when Pillow shrank the image (the browser's own
    scaled rendering is the image)."""

    def same(shot) -> bool:  # noqa: ANN001 - a Shot
        with Image.open(io.BytesIO(shot.png)) as png:
            return png.convert("RGB").tobytes() == shot.image.tobytes()

    small = {"screenshot_cap_width": 640, "screenshot_cap_height": 360}
    with serve_pages({"/": PAGE}) as srv:
        page = await session.fresh_page()
        await page.set_viewport_size({"width": 1280, "height": 720})
        await page.goto(srv.url("/"))
        for scaling in ("browser", "python"):
            whole = await Screen(page, make_config(capture_scaling=scaling)).capture()
            assert whole.image.size == (1280, 720) and whole.png is not None and same(whole)
        by_browser = await Screen(page, make_config(capture_scaling="browser", **small)).capture()
        assert by_browser.image.size == (640, 360) and by_browser.png is not None and same(by_browser)
        by_pillow = await Screen(page, make_config(capture_scaling="python", **small)).capture()
        assert by_pillow.image.size == (640, 360) and by_pillow.png is None
