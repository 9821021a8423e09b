"""frame_at_point, describe_at and the DOM click fallback, in every kind of frame."""

from __future__ import annotations

import pytest

from tests.support.frames import center, child, open_main
from webfovea.browser.frames import frame_at_point
from webfovea.execution.fallback import dom_click_at
from webfovea.feedback.element import describe_at

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("key", ["same", "xin", "oop", "nest"])
async def test_frame_at_point_finds_the_frame_and_local_point(session, site, key):
    page = await open_main(session, site)
    x, y = await center(page, key, "#go")
    hit = await frame_at_point(page, x, y)
    assert hit.is_child and not hit.is_captcha
    assert hit.frame == await child(page, key)
    assert len(hit.chain) == (3 if key == "nest" else 2)
    # the local point really is on #go inside that frame (borders and padding accounted for)
    on = await hit.frame.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).id", [hit.local_x, hit.local_y]
    )
    assert on == "go"


async def test_main_frame_point_and_captcha_frame(session, site):
    page = await open_main(session, site, "cap")
    hit = await frame_at_point(page, *(await center(page, None, "#top-btn")))
    assert not hit.is_child and hit.frame == page.main_frame and hit.chain == [page.url]
    hit = await frame_at_point(page, *(await center(page, "cap", "#go")))
    assert hit.is_child and hit.is_captcha


async def test_describe_button_in_oopif_and_overlay(session, site):
    page = await open_main(session, site, "oop", "xin", "nest")
    x, y = await center(page, "oop", "#go")
    info = await describe_at(page, x, y)
    assert info.tag == "button" and info.name == "Go" and info.clickable and info.is_child
    s = info.sentence()
    assert s.startswith(
        f'The point ({round(x)}, {round(y)}) is on a <button> "Go" (clickable) inside the frame http://localhost:'
    )
    # the transparent shield over #under: the button is named, the overlay reported
    info = await describe_at(page, *(await center(page, "oop", "#under")))
    assert info.tag == "button" and info.name == "Under" and info.covered_by == "div#shield.abs"
    assert "transparent overlay" in info.sentence()
    info = await describe_at(page, *(await center(page, "xin", "#country")))
    assert info.is_select and "use select" in info.sentence()
    info = await describe_at(page, *(await center(page, "nest", "#log")))
    assert not info.clickable and "not clickable" in info.sentence()


@pytest.mark.parametrize("key", ["oop", "xin", "nest"])
async def test_dom_click_under_overlay_triggers_handler_where_physical_click_does_not(session, site, key):
    page = await open_main(session, site, key)
    frame = await child(page, key)
    x, y = await center(page, key, "#under")
    await page.mouse.click(x, y)
    await page.wait_for_timeout(50)
    assert await frame.locator("#log").text_content() == ""  # the shield swallowed it
    assert await dom_click_at(page, x, y)
    assert await frame.locator("#log").text_content() == "under;"


async def test_dom_click_kinds_and_focus(session, site):
    page = await open_main(session, site, "oop")
    frame = await child(page, "oop")
    await frame.evaluate("""() => { const b = document.getElementById('go'); window.seen = [];
        for (const t of ['pointerdown','mousedown','focus','mouseup','click','dblclick','contextmenu'])
            b.addEventListener(t, (e) => seen.push(t + (e.clientX !== undefined ? '@' + Math.round(e.clientX) : ''))); }""")
    x, y = await center(page, "oop", "#go")
    hit = await frame_at_point(page, x, y)
    assert await dom_click_at(page, x, y, kind="dblclick")
    seen = await frame.evaluate("seen")
    lx = round(hit.local_x)
    assert seen == [
        f"pointerdown@{lx}",
        f"mousedown@{lx}",
        "focus",
        f"mouseup@{lx}",
        f"click@{lx}",
        f"pointerdown@{lx}",
        f"mousedown@{lx}",
        f"mouseup@{lx}",
        f"click@{lx}",
        f"dblclick@{lx}",
    ]
    assert await frame.evaluate("document.activeElement.id") == "go"
    await frame.evaluate("seen.length = 0")
    assert await dom_click_at(page, x, y, kind="contextmenu")
    assert "contextmenu@" + str(lx) in await frame.evaluate("seen")
    assert not await dom_click_at(page, x, y, kind="tripleclick")


async def test_no_dom_click_in_captcha_frame(session, site):
    page = await open_main(session, site, "cap")
    frame = await child(page, "cap")
    x, y = await center(page, "cap", "#go")
    assert not await dom_click_at(page, x, y)
    assert await frame.locator("#log").text_content() == ""


async def test_open_shadow_dom_describe_click_and_fill(session, site):
    from webfovea.execution.forms import fill_at

    page = await open_main(session, site, "oop")
    x, y = await center(page, None, "#sb")
    info = await describe_at(page, x, y)
    assert info.tag == "button" and info.name == "Shadow" and info.clickable and not info.is_child
    assert await dom_click_at(page, x, y)
    assert await page.evaluate("document.body.dataset.shadow") == "clicked"
    out = await fill_at(page, *(await center(page, None, "#si")), "in the shadow")
    assert out.ok and await page.locator("#si").input_value() == "in the shadow"


async def test_transparent_overlay_in_parent_document_above_an_iframe(session, site):
    page = await open_main(session, site, "xin")
    frame = await child(page, "xin")
    x, y = await center(page, "xin", "#go")
    hit = await frame_at_point(page, x, y)
    assert hit.is_child and hit.frame == frame and hit.covered_by == "div#mshield"
    info = await describe_at(page, x, y)
    assert info.name == "Go" and info.covered_by == "div#mshield"
    await page.mouse.click(x, y)
    assert await frame.locator("#log").text_content() == ""  # the main page's shield took it
    assert await dom_click_at(page, x, y)
    assert await frame.locator("#log").text_content() == "go;"


async def test_a_painted_backdrop_is_not_pierced(session, site):
    page = await open_main(session, site, "oop")
    frame = await child(page, "oop")
    # a half-opaque modal backdrop with a see-through child over the buttons: what is seen is the backdrop
    await frame.evaluate("""() => { const d = document.createElement('div');
        d.style.cssText = 'position:absolute;left:0;top:0;width:600px;height:60px;z-index:9;background:rgba(0,0,0,.5)';
        d.id = 'backdrop'; d.innerHTML = '<div id=clear style="width:100%;height:100%"></div>';
        document.body.appendChild(d); }""")
    x, y = await center(page, "oop", "#go")
    info = await describe_at(page, x, y)
    assert info.tag == "div" and not info.clickable and info.covered_by is None
    assert await dom_click_at(page, x, y)  # delivered to what is really there
    assert await frame.locator("#log").text_content() == ""
