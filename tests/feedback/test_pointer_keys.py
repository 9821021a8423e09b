"""Pointer and keyboard like a person: hover before the press, scroll by a share of the
container under the point, editing shortcuts in editable elements only."""

from __future__ import annotations

import pytest

from tests.feedback.conftest import act, at, centre, open_lab
from webfovea.config import make_config
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _details(session, sites, **cfg):
    h = await open_lab(session, sites, "/lab/rows", **cfg)
    # the Details button is hidden until hovered; its place is known from the layout
    await h.page.hover("h1")
    pt = await centre(h, '.details[data-id="3"]')
    await h.observe()
    from tests.feedback.conftest import at

    return h, await h.step(f"Thought: t\nAction: click(start_box={at(h, pt)})")


async def test_click_lets_hover_happen_before_pressing(session, sites):
    h, res = await _details(session, sites)
    assert "CC-" in await h.page.text_content("#row-dialog") and h.page.url.endswith("/lab/rows")
    h, res = await _details(session, sites, disable=["person_pointer"])
    assert h.page.url.endswith("/lab/rows/3")  # moved and pressed at once: the row took the click


async def test_scroll_moves_a_share_of_the_list_box(session, sites):
    h = await open_lab(session, sites, "/lab/listbox")
    res = await act(h, "scroll", "#listbox", direction="down")
    top = await h.page.eval_on_selector("#listbox", "e => e.scrollTop")
    assert 100 <= top <= 135, top  # most of its 150 px (a small box), not 600 px past its items
    assert res.executed.changed is True
    assert "<div#listbox" in res.feedback or "<ul#listbox" in res.feedback, res.feedback
    assert "of its content (its end" in res.feedback
    h = await open_lab(session, sites, "/lab/listbox", disable=["container_scroll"])
    await act(h, "scroll", "#listbox", direction="down")
    assert await h.page.eval_on_selector("#listbox", "e => e.scrollTop") > 500


async def test_editor_shortcut_passes_only_in_an_editable_element(session, sites):
    h = await open_lab(session, sites, "/lab/editor")
    res = await act(h, "hotkey", key="ctrl u")
    assert res.outcome == "rejected" and "blocked" in res.feedback  # focus on the page body
    await act(h, "click", "#editor")
    res = await act(h, "hotkey", key="ctrl u")
    assert await h.page.text_content("#editor-log") == "Underline on"
    assert res.outcome == "executed"
    res = await act(h, "hotkey", key="ctrl l")
    assert res.outcome == "rejected"


AGREEMENT = (
    "<html><body><h1>Terms</h1><div id=terms style='height:120px;width:400px;overflow:auto;"
    "border:1px solid'>"
    + "".join(f"<p>Clause {i}: the parties agree to clause {i}.</p>" for i in range(1, 41))
    + "</div><label><input type=checkbox id=agree> I agree</label></body></html>"
)


async def test_scrolling_a_small_box_reaches_its_end_and_says_how_far(session):
    """A 120-px box of 40 clauses: each scroll moves most of its height, the note says how much
    of its content is shown and what is left, and the end is reached in a bounded number of steps."""
    from tests.support.servers import serve_pages

    with serve_pages({"/": AGREEMENT}) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config())
        await h.goto(srv.url("/"))
        full, size = await page.eval_on_selector("#terms", "e => [e.scrollHeight, e.clientHeight]")
        tops, notes = [], []
        for _ in range(40):
            res = await act(h, "scroll", "#terms", direction="down")
            tops.append(await page.eval_on_selector("#terms", "e => e.scrollTop"))
            notes.append(res.feedback)
            if "its end is reached" in res.feedback:
                break
        assert tops[-1] >= full - size - 1  # really at the end
        assert tops[0] >= 0.75 * size  # most of the box's height per scroll
        assert len(tops) <= (full - size) / (0.75 * size) + 2
        assert "The scrollable area <div#terms> now shows" in notes[0] and "% more)" in notes[0]
        assert await page.evaluate("scrollY") == 0  # the page itself never moved


READ = """<html><body><table id=t><thead><tr><th>City</th><th>Country<br><small>ISO</small></th><th>Score</th></tr></thead>
<tbody><tr><td>Oslo</td><td><div>Norway</div><div>NO</div></td><td>412</td></tr><tr><td>Lima</td><td><div>Peru</div></td><td>187</td></tr></tbody></table>
<ul id=l><li>First item</li><li><span>Second</span> <b>item</b></li><li><p>Third</p><p>part two</p></li></ul></body></html>"""


async def test_read_text_keeps_rows_cells_items_and_headers(session):
    from tests.support.servers import serve_pages
    from webfovea.browser.textsearch import read_text

    with serve_pages({"/": READ}) as srv:
        page = await session.fresh_page()
        await page.goto(srv.url("/"))
        out = await read_text(page, "Oslo")
        assert out.text.startswith("Oslo | Norway NO | 412\nLima | Peru | 187"), out.text
        assert out.text.endswith("(columns: City | Country ISO | Score)")
        out = await read_text(page, "First item")
        assert "First item\n- Second item\n- Third\npart two" in out.text, out.text


SORTABLE = """<!doctype html><html><body><script src="/Sortable.min.js"></script>
<ul id=list style="list-style:none;width:300px;padding:0">
{items}</ul><p id=order></p><script>
const list = document.getElementById('list');
const show = () => { document.getElementById('order').textContent = [...list.children].map(e => e.id).join(','); };
new Sortable(list, {animation: 150, onEnd: show});
show();
</script></body></html>"""


async def test_a_drag_is_paced_so_an_animated_sortable_list_follows_it(session):
    """SortableJS swaps one slot per 150-ms animation: a one-burst drag moved the item one or two
    slots; the paced drag lands it where the model pointed."""
    from tests.support.npm import npm_file
    from tests.support.servers import serve_pages

    items = "".join(
        f"<li id=i{n} style='height:48px;margin:2px;background:#ddd;font-size:20px'>Item {n}</li>"
        for n in range(1, 7)
    )
    pages = {
        "/": SORTABLE.replace("{items}", items),
        "/Sortable.min.js": npm_file("sortablejs@1.15.6", "Sortable.min.js"),
    }
    with serve_pages(pages) as srv:
        page = await session.fresh_page()
        h = await Harness.on_page(page, make_config())
        await h.goto(srv.url("/"))
        assert await page.inner_text("#order") == "i1,i2,i3,i4,i5,i6"
        await h.observe()
        start = await centre(h, "#i1")
        end = await centre(h, "#i4", dy=12)  # the lower half of item 4: item 1 goes after it
        res = await h.step(f"Thought: t\nAction: drag(start_box={at(h, start)}, end_box={at(h, end)})")
        assert res.outcome == "executed"
        assert await page.inner_text("#order") == "i2,i3,i4,i1,i5,i6"
