"""find_text and read_text against long pages, scroll boxes, frames and private-use glyphs."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from webfovea.browser.textsearch import find_text, read_text, replace_private_use

pytestmark = pytest.mark.asyncio(loop_scope="session")

_IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


async def _search_page(session, site):
    page = await session.fresh_page()
    await page.goto(site[0].url("/search.html"))
    frame = page.frame_locator("#longf")
    await frame.locator("#target").wait_for()
    return page


def _long_frame(page):
    return next(f for f in page.frames if f.url.endswith("/long.html"))


async def test_find_text_scrolls_long_iframe_and_main_page(session, site):
    page = await _search_page(session, site)
    out = await find_text(page, "hidden needle")  # case and spacing differ from the page
    assert out.found and out.total == 1 and out.index == 0 and out.frame_url.startswith("http://localhost:")
    frame = _long_frame(page)
    assert await frame.evaluate("scrollY") > 1000  # the frame's own document scrolled
    assert await frame.locator("#target").evaluate(_IN_VIEW)
    # and the main page scrolled so the iframe's match is on screen
    box = await page.frame_locator("#longf").locator("#target").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 1080
    assert not hasattr(out, "text")


async def test_find_text_occurrences_in_order_and_scroll_box(session, site):
    page = await _search_page(session, site)
    out = await find_text(page, "needle", occurrence=1)
    assert out.found and out.total == 3 and out.index == 1 and out.frame_url == page.url
    assert await page.evaluate("document.getElementById('box').scrollTop") > 500
    assert await page.locator(
        "#boxed"
    ).evaluate("""(el) => { const r = el.getBoundingClientRect(),
        b = document.getElementById('box').getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom; }""")
    out = await find_text(page, "needle", occurrence=5)  # wraps around like Ctrl+F
    assert out.found and out.index == 2 and "long.html" in out.frame_url
    out = await find_text(page, "no such words anywhere")
    assert not out.found and out.total == 0 and "does not appear" in out.error


async def test_read_text_row_and_private_use(session, site):
    page = await _search_page(session, site)
    out = await read_text(page, "widget", limit=14)
    assert out.found and out.matches == 1 and out.frame_url == page.url
    assert out.text == "Widget | ??.50" and out.replaced == 2
    out = await read_text(page, "widget", limit=40)
    assert out.text.startswith("Widget | ??.50\nGadget | ? 9") and out.replaced == 3 and len(out.text) <= 40
    out = await read_text(page, "Gadget")
    assert out.text.startswith("Gadget | ? 9") and out.replaced == 1
    assert replace_private_use("a\ue000b\U00100000") == ("a?b?", 2)


async def test_read_text_in_frame_and_many_matches(session, site):
    page = await _search_page(session, site)
    out = await read_text(page, "hidden needle", limit=80)
    assert out.found and "long.html" in out.frame_url
    assert out.text.startswith("The Hidden Needle sits here\ntail line 0")
    out = await read_text(page, "filler line")
    assert out.found and out.matches == 200 and out.text.startswith("filler line")
    out = await read_text(page, "zebra crossing")
    assert not out.found and "zebra crossing" in out.error


_TRICKY = """<p>Alpha   <b>beta
   gamma</b>   delta</p>
<ul><li>\u0130stanbul  office</li><li>\u00dcmit &nbsp; road 12</li></ul>
<table><tr><th>Station</th><th>2023</th></tr>
<tr><td>  ST-1500  </td><td>74.6</td></tr></table>
<div>x<span> </span>   <i>last words</i>   </div>"""

# What the page's own text holds between the first and last character of each match: the
# search collapses spaces, lowercases, and joins table cells with ' | '.
_RANGES = {
    "alpha beta gamma": "Alpha   beta\n   gamma",
    "gamma delta": "gamma   delta",
    "stanbul office": "stanbul  office",  # after a character that lowercases to two ('İ')
    "road 12": "road 12",
    "st-1500 | 74.6": "ST-1500  74.6",
    "x last": "x    last",
}


async def test_a_match_is_highlighted_exactly_where_the_page_holds_it(session, site):
    """The search's map back from its collapsed text to the page's text nodes: the range it
    highlights spans exactly the matched characters, whatever spaces, inline elements, cells
    and case changes lie before and between them."""
    page = await session.fresh_page()
    await page.set_content(_TRICKY)
    for query, held in _RANGES.items():
        out = await find_text(page, query)
        assert out.found and out.total == 1, (query, out)
        got = await page.evaluate(
            "() => CSS.highlights.get('webfovea-find').values().next().value.toString()"
        )
        assert got == held, query
        await page.evaluate("() => CSS.highlights.delete('webfovea-find')")
    # The highlight is painted: one rule on the root, inherited by every text (a rule on every
    # element made a 21,000-cell page restyle twice, +8-16 MiB in its renderer).
    await find_text(page, "gamma delta")
    box = await page.evaluate(
        """() => { const b = CSS.highlights.get('webfovea-find').values().next().value.getBoundingClientRect();
        return [b.left, b.top, b.width, b.height]; }"""
    )
    shot = Image.open(io.BytesIO(await page.screenshot())).convert("RGB")
    x, y, w, h = (round(v) for v in box)
    yellow = [shot.getpixel((x + i, y + j)) for i in range(2, w - 2, 3) for j in range(2, h - 2, 2)]
    assert sum(1 for r, g, b in yellow if r > 230 and g > 210 and b < 120) > len(yellow) / 3
    out = await read_text(page, "st-1500", limit=40)
    assert out.found and out.text.startswith("ST-1500 | 74.6\n")
    # One document: one walk counts and reveals, and the occurrence wraps around as with two.
    out = await find_text(page, "a", occurrence=13)
    assert out.found and out.total == 10 and out.index == 3, out
    out = await find_text(page, "no such words")
    assert not out.found and out.total == 0 and "does not appear" in out.error
