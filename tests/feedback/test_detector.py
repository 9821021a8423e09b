"""The change detector on the widget lab: never "no change" when the visible state changed,
"no change" when nothing did, and the note names what changed."""

from __future__ import annotations

import pytest

from tests.feedback.conftest import act, at, centre, open_lab

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_equal_length_tab_panel(session, sites):
    h = await open_lab(session, sites, "/lab/tabs")
    res = await act(h, "click", "#tab-gamma")
    assert await h.page.text_content("#panel-text") == "Gamma region: 5,678 tonnes"
    assert res.outcome == "executed" and res.executed.changed is True
    assert "No detectable change" not in res.feedback and "tab" in res.feedback
    res = await act(h, "click", "#tab-gamma")  # already selected: nothing changes
    assert res.outcome == "no_effect" and "No detectable change" in res.feedback and "Gamma" in res.feedback


async def test_counter_and_date(session, sites):
    h = await open_lab(session, sites, "/lab/counter")
    res = await act(h, "click", "#add")
    assert await h.page.text_content("#count") == "2"
    assert res.executed.changed is True and "count" in res.feedback
    res = await act(h, "click", "#later")
    assert await h.page.text_content("#date") == "2024-05-02"
    assert res.executed.changed is True and "date" in res.feedback


async def test_aria_only_checkbox_and_switch(session, sites):
    h = await open_lab(session, sites, "/lab/aria")
    res = await act(h, "click", "#alerts")
    assert await h.page.get_attribute("#alerts", "aria-checked") == "true"
    assert "the checkbox 'Email alerts' is now checked" in res.feedback
    res = await act(h, "click", "#dark")
    assert "the switch 'Dark mode' is now checked" in res.feedback
    res = await act(h, "click", "#dark")
    assert "the switch 'Dark mode' is no longer checked" in res.feedback


async def test_sorted_table(session, sites):
    h = await open_lab(session, sites, "/lab/sort")
    res = await act(h, "click", "#by-value")
    assert await h.page.text_content("#sort-table tbody tr td.name") == "Lima"
    assert res.executed.changed is True and "order" in res.feedback and "table" in res.feedback


async def test_spin_box_and_slider_key(session, sites):
    h = await open_lab(session, sites, "/lab/spin")
    res = await act(h, "click", "#up")
    assert await h.page.text_content("#spin") == "2"
    assert res.executed.changed is True and "Copies" in res.feedback
    await h.page.focus("#slider")
    res = await act(h, "hotkey", key="right")
    assert await h.page.input_value("#slider") == "129"
    assert res.executed.changed is True and "value" in res.feedback


async def test_drag_reorders_list_and_resizes_box(session, sites):
    h = await open_lab(session, sites, "/lab/sortable")
    await h.observe()
    a, b = await centre(h, "#sortable li[data-k=Wash]"), await centre(h, "#sortable li[data-k=Fold]", dy=12)
    res = await h.step(f"Thought: t\nAction: drag(start_box={at(h, a)}, end_box={at(h, b)})")
    assert (
        await h.page.eval_on_selector("#sortable", "u => [...u.children].map(l => l.dataset.k).join()")
        != "Wash,Dry,Fold,Store"
    )
    assert res.executed.changed is True and "list" in res.feedback

    h = await open_lab(session, sites, "/lab/resize")
    await h.observe()
    box = await h.page.locator("#notes").bounding_box()
    corner = (box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)
    res = await h.step(
        f"Thought: t\nAction: drag(start_box={at(h, corner)}, end_box={at(h, (corner[0] + 120, corner[1] + 80))})"
    )
    assert (await h.page.locator("#notes").bounding_box())["width"] > box["width"] + 50
    assert res.executed.changed is True and "size" in res.feedback


async def test_text_selection_by_drag_and_select_all(session, sites):
    h = await open_lab(session, sites, "/lab/text")
    await h.observe()
    box = await h.page.locator("#para").bounding_box()
    a, b = (box["x"] + 5, box["y"] + 8), (box["x"] + 300, box["y"] + 8)
    res = await h.step(f"Thought: t\nAction: drag(start_box={at(h, a)}, end_box={at(h, b)})")
    assert await h.page.evaluate("getSelection().toString().length") > 5
    assert res.executed.changed is True and "selected" in res.feedback
    res = await act(h, "hotkey", key="ctrl a")
    assert res.executed.changed is True and "selected" in res.feedback


async def test_nothing_changed_is_no_change(session, sites):
    h = await open_lab(session, sites, "/lab/text")
    res = await act(h, "click", "h1")
    assert res.outcome == "no_effect" and res.executed.changed is False
    assert "No detectable change" in res.feedback


async def test_never_quiet_page_names_the_unrelated_change(session, sites):
    h = await open_lab(session, sites, "/lab/busy?clock=1&stream=1&spin=1")
    await h.page.wait_for_timeout(400)  # the clock and the ticker have been changing on their own
    await h.observe()
    await h.page.wait_for_timeout(250)  # the model thinks; the clock ticks meanwhile
    res = await h.step(f"Thought: t\nAction: click(start_box={at(h, await centre(h, '#noop'))})")
    assert res.outcome == "no_effect" and "No detectable change" in res.feedback
    assert "on its own" in res.feedback or "on their own" in res.feedback
    assert res.seconds < 3
    res = await act(h, "click", "#mark")
    assert await h.page.text_content("#marked") == "Marked"
    assert res.outcome == "executed" and "marked" in res.feedback and "clock" not in res.feedback


async def test_action_that_never_lets_the_page_settle_is_bounded_and_said(session, sites):
    h = await open_lab(session, sites, "/lab/busy")
    res = await act(h, "click", "#start")  # starts a counter that changes every 40 ms, forever
    assert h.settle.last.timed_out and res.seconds < 6
    assert res.outcome == "executed" and "never went quiet" in res.feedback
