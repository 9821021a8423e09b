"""Scoped snapshots never hide what is on screen: virtualised grids and lists from npm
(AG Grid Community, Tabulator, TanStack Virtual), a Django-admin change list, a scaled container and a nested scroller.
Which rows a person sees is read from the page itself (`elementFromPoint` at each row's centre);
those rows' text and refs are in the structured and hybrid snapshot, a row is selected or edited
by ref and the page says so, and rows far from the view are still left out."""

from __future__ import annotations

import re

import pytest

from tests.observation.scoping_pages import ADMIN, NESTED, SCALED, TANSTACK, ag_grid_page, tabulator_page
from tests.support.npm import npm_file, npm_folder
from tests.support.servers import serve_pages
from tests.support.shared_browser import harness_on
from webfovea import Harness

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

MODES = ["structured", "hybrid"]
AG = "ag-grid-community@36.2.0"
TABULATOR = "tabulator-tables@6.3.1"
TANSTACK_VIRTUAL = "@tanstack/virtual-core@3.13.12"

# The rows a person sees: those whose centre point hits the row itself (not a clip, not a cover).
SEEN_JS = """(sel) => [...document.querySelectorAll(sel)].filter((r) => {
  const b = r.getBoundingClientRect();
  const x = b.left + Math.min(b.width / 2, 40), y = b.top + b.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
  const hit = document.elementFromPoint(x, y);
  return !!hit && r.contains(hit);
}).map((r) => r.getAttribute('data-key') || r.getAttribute('row-id') || r.textContent.trim().slice(0, 40))"""


def ref_of(snapshot: str, pattern: str) -> str:
    m = re.search(pattern + r"[^\n]*?\[ref=((?:f\d+)?e\d+)\]", snapshot)
    assert m, f"no line matching {pattern!r} in:\n{snapshot[:4000]}"
    return m.group(1)


def assert_scoped_view(obs, seen: list[str], far: list[str]) -> None:
    info = obs.snapshot_info
    assert info.scoped and info.error is None, info.to_json()
    assert len(seen) >= 5, seen  # the page really shows rows
    missing = [k for k in seen if k not in obs.snapshot]
    assert not missing, f"on screen but not in the snapshot: {missing}\n{obs.snapshot[-3000:]}"
    assert "not near the view omitted" in obs.snapshot or not far
    assert not [k for k in far if k in obs.snapshot], "rows far from the view were not left out"


async def _ag_grid(h: Harness) -> None:
    await h.page.wait_for_selector(".ag-grid-scrolling-container .ag-row")
    await h.page.evaluate("window.api.ensureIndexVisible(600, 'top')")
    await h.page.wait_for_timeout(300)


@pytest.mark.parametrize("mode", MODES)
async def test_ag_grid_rows_on_screen_are_read_selected_and_edited_by_ref(session, mode):
    pages = {"/": ag_grid_page(2000), "/ag.js": npm_file(AG, "dist/ag-grid-community.min.js")}
    with serve_pages(pages) as srv:
        async with harness_on(session, srv.url("/"), observation=mode) as h:
            await _ag_grid(h)
            seen = await h.page.evaluate(SEEN_JS, ".ag-grid-scrolling-container .ag-row")
            obs = await h.observe()
            assert_scoped_view(obs, seen, ["VIN-00000", "VIN-01500", "VIN-01999"])
            last = seen[-1]
            # select the last row on screen by its checkbox
            before = obs.snapshot[: obs.snapshot.index(last)]
            box = re.findall(r'checkbox "Press Space to toggle row selection[^\n]*\[ref=(e\d+)\]', before)[-1]
            res = await h.step(f"Thought: select\nAction: click(ref='{box}')")
            assert res.outcome == "executed", res.feedback
            assert await h.page.evaluate("window.api.getSelectedRows().map(r => r.vin)") == [last]
            # edit another visible row's Make cell: double-click it by ref, type, Enter
            target = seen[len(seen) // 2]
            cell = ref_of(obs.snapshot[obs.snapshot.index(target) :], r'gridcell "(?:Ford|Kia|Audi)"')
            obs = await h.observe()
            res = await h.step(f"Thought: edit\nAction: left_double(ref='{cell}')")
            assert res.outcome == "executed", res.feedback
            res = await h.step("Thought: type\nAction: type(content='Tesla\\n')")
            make = await h.page.evaluate(f"window.api.getRowNode('{target}').data.make")
            assert make == "Tesla", res.feedback


@pytest.mark.parametrize("mode", MODES)
async def test_tabulator_virtual_rows_on_screen_are_read_and_selected_by_ref(session, mode):
    pages = {
        "/": tabulator_page(3000),
        "/tabulator.min.js": npm_file(TABULATOR, "dist/js/tabulator.min.js"),
        "/tabulator.min.css": npm_file(TABULATOR, "dist/css/tabulator.min.css"),
    }
    with serve_pages(pages) as srv:
        async with harness_on(session, srv.url("/"), observation=mode) as h:
            await h.page.wait_for_selector(".tabulator-row")
            await h.page.evaluate("window.table.scrollToRow(1200, 'top', false)")
            await h.page.wait_for_timeout(300)
            seen = [s[:9] for s in await h.page.evaluate(SEEN_JS, ".tabulator-row")]
            obs = await h.observe()
            assert_scoped_view(obs, seen, ["TAB-00000", "TAB-02500"])
            pick = seen[-2]
            cell = ref_of(obs.snapshot, f'gridcell "{pick}')
            res = await h.step(f"Thought: select\nAction: click(ref='{cell}')")
            assert res.outcome == "executed", res.feedback
            assert await h.page.evaluate("window.table.getSelectedData().map(r => r.code)") == [pick]


@pytest.mark.parametrize("mode", MODES)
async def test_tanstack_virtual_list_rows_on_screen_are_checked_by_ref(session, mode):
    with serve_pages({"/": TANSTACK, **npm_folder(TANSTACK_VIRTUAL, "dist/esm", "/tv")}) as srv:
        async with harness_on(session, srv.url("/"), observation=mode) as h:
            await h.page.wait_for_selector(".task")
            await h.page.evaluate("window.virt.scrollToIndex(2500, {align: 'start'})")
            await h.page.wait_for_timeout(400)
            seen = await h.page.evaluate(SEEN_JS, ".task")
            obs = await h.observe()
            assert_scoped_view(obs, seen, ["LOG-01000", "LOG-01400"])
            pick = seen[len(seen) // 2]
            box = ref_of(obs.snapshot, f'checkbox "Done {pick}"')
            res = await h.step(f"Thought: tick\nAction: click(ref='{box}')")
            assert res.outcome == "executed", res.feedback
            assert await h.page.evaluate("window.done") == [pick]


@pytest.mark.parametrize("mode", MODES)
async def test_admin_change_list_rows_are_selected_and_acted_on_by_ref(session, mode):
    with serve_pages({"/admin/shop/order/": ADMIN}) as srv:
        async with harness_on(session, srv.url("/admin/shop/order/"), observation=mode) as h:
            seen = await h.page.evaluate(SEEN_JS, "#result_list tbody tr")
            obs = await h.observe()
            assert_scoped_view(obs, seen, ["ORD-10070", "ORD-10080"])
            pick = seen[-1]
            box = ref_of(obs.snapshot, f'checkbox "Select {pick}"')
            action = ref_of(obs.snapshot, r'combobox "Action:"')
            for act in (
                f"click(ref='{box}')",
                f"select(ref='{action}', option='Mark selected orders as shipped')",
            ):
                res = await h.step(f"Thought: go\nAction: {act}")
                assert res.outcome == "executed", res.feedback
            obs = await h.observe()
            go = ref_of(obs.snapshot, r'button "Go"')
            res = await h.step(f"Thought: run\nAction: click(ref='{go}')")
            assert res.outcome == "executed", res.feedback
            body = dict(p.split("=", 1) for p in srv.bodies[-1][1].decode().split("&"))
            assert body["_selected_action"] == pick.removeprefix("ORD-") and body["action"] == "mark_shipped"


@pytest.mark.parametrize(("page", "rows"), [(SCALED, ".scaled .rec"), (NESTED, ".pane .rec")])
async def test_scaled_and_nested_scroller_rows_on_screen_are_kept(session, page, rows):
    with serve_pages({"/": page}) as srv:
        async with harness_on(session, srv.url("/"), observation="structured") as h:
            await h.page.evaluate(
                "document.querySelector('.pane') && (document.querySelector('.pane').scrollTop = 60000)"
            )
            seen = await h.page.evaluate(SEEN_JS, rows)
            obs = await h.observe()
            assert_scoped_view(obs, seen, ["REC-01000", "REC-02500"])
            # rows the nested scroller clips away (on the page's screen, outside their pane) stay out
            hidden = await h.page.evaluate(
                "[...document.querySelectorAll('.pane .rec')].filter((r) => { const b = r.getBoundingClientRect();"
                " const p = r.closest('.pane').getBoundingClientRect();"
                " return b.bottom < p.top - 400 && b.top > 0; }).map((r) => r.getAttribute('data-key'))"
            )
            assert not [k for k in hidden if k in obs.snapshot], hidden
            pick = seen[len(seen) // 2]
            link = ref_of(obs.snapshot, f'link "{pick}')
            res = await h.step(f"Thought: open\nAction: click(ref='{link}')")
            assert res.outcome == "executed" and await h.page.evaluate("location.hash") == "#" + pick
