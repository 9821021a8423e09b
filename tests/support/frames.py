"""One pair of loopback servers per test module serving a page embedded in every kind of iframe
(tests/support/frame_pages.py), and helpers to reach its frames and elements."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.async_api import Frame, Page

from tests.support.frame_pages import fill_ports, site_pages
from tests.support.servers import PageServer, two_origins
from webfovea.browser.session import BrowserSession


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[PageServer, PageServer]]:
    main, frames = site_pages()
    with two_origins(main, frames) as (a, b):
        fill_ports(main, frames, a.port, b.port)
        yield a, b


async def open_main(session: BrowserSession, site: tuple[PageServer, PageServer], *keys: str) -> Page:
    """The main test page with the given frames (all of them when none are named), loaded."""
    page = await session.fresh_page()
    wanted = keys or tuple(FRAMES)
    await page.goto(site[0].url("/main.html" + (f"?f={','.join(keys)}" if keys else "")))
    expected = 1 + len(wanted) + ("nest" in wanted)
    for _ in range(200):
        if len(page.frames) >= expected and all(f.url != "about:blank" for f in page.frames):
            break
        await page.wait_for_timeout(20)
    for f in page.frames:
        await f.wait_for_load_state("load")
    return page


FRAMES = {"same": ["#same"], "xin": ["#xin"], "oop": ["#oop"], "nest": ["#nest", "#deep"], "cap": ["#cap"]}


async def child(page: Page, key: str) -> Frame:
    """The Playwright Frame for a FRAMES key (out-of-process frames have no name, so ask the element)."""
    frame = page.main_frame
    for sel in FRAMES[key]:
        for f in frame.child_frames:
            if await (await f.frame_element()).get_attribute("id") == sel[1:]:
                frame = f
                break
        else:
            raise AssertionError(f"no frame {sel}")
    return frame


async def center(page: Page, key: str | None, selector: str) -> tuple[float, float]:
    """Centre of an element in main-viewport CSS pixels, whatever frame it is in."""
    loc = page.locator(selector) if key is None else None
    if key is not None:
        fl = page.frame_locator(FRAMES[key][0])
        for sel in FRAMES[key][1:]:
            fl = fl.frame_locator(sel)
        loc = fl.locator(selector)
    assert loc is not None
    box = await loc.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
