"""select_at and fill_at: the page really holds the choice/text and its listeners really fired."""

from __future__ import annotations

import pytest

from tests.support.frames import center, child, open_main
from webfovea.browser.frames import frame_at_point
from webfovea.execution.forms import fill_at, select_at

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_select_in_oopif_normalised_fires_listeners(session, site):
    page = await open_main(session, site, "oop")
    frame = await child(page, "oop")
    out = await select_at(page, *(await center(page, "oop", "#country")), "Vietnam")
    assert out.ok and out.chosen == "Viet Nam" and out.value == "vn" and out.how == "normalised"
    assert await frame.evaluate("document.getElementById('country').value") == "vn"
    assert await frame.locator("#log").text_content() == "input:vn;change:vn;"


async def test_select_in_process_cross_origin_exact_and_via_label(session, site):
    page = await open_main(session, site, "xin")
    frame = await child(page, "xin")
    out = await select_at(page, *(await center(page, "xin", "#country")), "Germany")
    assert out.ok and out.how == "exact" and out.value == "de"
    # a point on the <label for=country> reaches the same select
    out = await select_at(page, *(await center(page, "xin", "#clabel")), "cote d ivoire")
    assert out.ok and out.chosen == "Côte d'Ivoire" and out.how == "normalised"
    assert await frame.locator("#log").text_content() == "input:de;change:de;input:ci;change:ci;"


async def test_select_substring_unique_ambiguous_and_missing(session, site):
    page = await open_main(session, site, "nest")
    frame = await child(page, "nest")
    point = await center(page, "nest", "#country")
    out = await select_at(page, *point, "Kingdom")
    assert out.ok and out.chosen == "United Kingdom" and out.how == "substring"
    out = await select_at(page, *point, "United")
    assert not out.ok and "ambiguous" in out.error and "'United States'" in out.error
    out = await select_at(page, *point, "Atlantis")
    assert not out.ok and out.error == "no option matches 'Atlantis'"
    assert "Korea, Republic of" in out.options and "Viet Nam" in out.options
    # the failed attempts left the earlier choice alone
    assert await frame.evaluate("document.getElementById('country').value") == "uk"


async def test_select_where_there_is_no_select(session, site):
    page = await open_main(session, site, "oop")
    out = await select_at(page, *(await center(page, "oop", "#go")), "Germany")
    assert not out.ok and '<button> "Go"' in out.error and "no dropdown" in out.error


async def test_fill_types_real_keystrokes_in_oopif(session, site):
    page = await open_main(session, site, "oop")
    frame = await child(page, "oop")
    out = await fill_at(page, *(await center(page, "oop", "#name")), "hello world")
    assert out.ok and out.matches and out.value == "hello world"
    assert await frame.evaluate("document.getElementById('name').value") == "hello world"
    # every typed character raised a keyup the page saw (plus the Delete that cleared "old text")
    assert int(await frame.evaluate("document.body.dataset.keyups")) >= len("hello world")


async def test_fill_under_transparent_overlay_and_main_frame(session, site):
    page = await open_main(session, site, "xin")
    frame = await child(page, "xin")
    point = await center(page, "xin", "#hidden-in")
    assert (
        await frame.evaluate(f"document.elementFromPoint(...{list(await _local(page, point))}).id")
    ) == "shield2"
    out = await fill_at(page, *point, "under the shield")
    assert out.ok and out.value == "under the shield"
    assert await frame.evaluate("document.getElementById('hidden-in').value") == "under the shield"
    assert int(await frame.evaluate("document.body.dataset.hkeyups")) >= len("under the shield")
    out = await fill_at(page, *(await center(page, None, "#main-in")), "top level\n")
    assert out.ok and out.value == "top level"  # the trailing newline is the executor's business
    assert await page.evaluate("document.getElementById('main-in').value") == "top level"


async def _local(page, point):
    hit = await frame_at_point(page, *point)
    return hit.local_x, hit.local_y


async def test_fill_date_input_gets_iso(session, site):
    page = await open_main(session, site, "xin")
    frame = await child(page, "xin")
    out = await fill_at(page, *(await center(page, "xin", "#when")), "05/01/2023")
    assert out.ok and out.value == "2023-05-01"
    assert await frame.evaluate("document.getElementById('when').value") == "2023-05-01"
    assert await frame.locator("#log").text_content() == "date:2023-05-01;"
    out = await fill_at(page, *(await center(page, "xin", "#when")), "sometime soon")
    assert not out.ok and "2023-05-01" in out.error


async def test_fill_contenteditable_in_nested_frame(session, site):
    page = await open_main(session, site, "nest")
    frame = await child(page, "nest")
    out = await fill_at(page, *(await center(page, "nest", "#ce")), "new words")
    assert out.ok and out.value == "new words"
    assert await frame.evaluate("document.getElementById('ce').innerText.trim()") == "new words"


async def test_fill_on_a_button_says_what_is_there(session, site):
    page = await open_main(session, site, "oop")
    out = await fill_at(page, *(await center(page, "oop", "#go")), "x")
    assert not out.ok and '<button> "Go" (clickable)' in out.error and "no text field" in out.error


async def test_select_via_a_wrapper_but_not_from_empty_space(session, site):
    page = await open_main(session, site, "oop")
    out = await select_at(page, *(await center(page, None, "#arrow")), "two")
    assert out.ok and out.chosen == "Two" and out.how == "normalised"
    assert await page.evaluate("document.body.dataset.msel") == "Two"
    out = await select_at(page, 1800, 1000, "One")  # empty page area: the page's only wrapper is <body>
    assert not out.ok and "no dropdown" in out.error
    assert await page.evaluate("document.getElementById('msel').value") == "Two"
