"""Structured mode on real Chromium and the proving ground: refs resolve (main frame, an
out-of-process frame, an open shadow root), stale refs are refused and a fresh snapshot
follows, the 500 KB register fits the budget with refs that resolve, the guards annotate."""

from __future__ import annotations

import re

import pytest

from tests.support.shared_browser import harness_on
from webfovea.browser import snapshot_text as st
from webfovea_proving_ground.sites.structure import ANSWER_ROW, station_value

pytestmark = pytest.mark.asyncio(loop_scope="session")


def ref_of(snapshot: str, pattern: str) -> str:
    m = re.search(pattern if "(" in pattern else pattern + r".*?\[ref=((?:f\d+)?e\d+)\]", snapshot)
    assert m, f"no line matching {pattern!r} in:\n{snapshot[:2000]}"
    return m.group(1)


async def test_open_shadow_ref_click_and_closed_shadow_guard(session, sites):
    async with harness_on(session, sites.url("/struct/widgets"), observation="structured") as h:
        obs = await h.observe()
        assert obs.image is not None and h.model_input("t").images == []  # the model gets text only
        assert "[closed shadow root: <closed-vault>" in obs.snapshot
        ref = ref_of(obs.snapshot, r'button "Show meter reading"')
        res = await h.step(f"Thought: open it\nAction: click(ref='{ref}')")
        assert res.outcome == "executed" and res.executed.target.role == "button"
        assert "Reading:" in await h.page.locator("open-meter").evaluate("e => e.shadowRoot.textContent")
        assert "Reading:" in (await h.observe()).snapshot


async def test_ref_inside_out_of_process_frame(session, sites):
    async with harness_on(session, sites.url("/dashboard"), observation="structured") as h:
        obs = await h.observe()
        ref = ref_of(obs.snapshot, r"listitem \[ref=(f\d+e\d+)\][^\n]*: Kenya")
        assert ref.startswith("f")
        res = await h.step(f"Thought: pick Kenya\nAction: click(ref='{ref}')")
        assert res.error is None and res.executed.target.point[1] > 0
        detail = h.page.frame_locator("#dash").locator("#detail h3")
        assert "Kenya" in (await detail.text_content() or "")


async def test_stale_ref_after_rename_is_refused_with_fresh_snapshot(session, sites):
    async with harness_on(session, sites.url("/struct/seat"), observation="structured") as h:
        obs = await h.observe()
        ref = ref_of(obs.snapshot, r'button "Hold seat 14C"')
        res = await h.step(f"Thought: hold\nAction: click(ref='{ref}')")
        assert res.outcome == "executed"
        assert await h.page.locator("#seat").text_content() == "Seat 14C held - confirm below"
        res = await h.step(f"Thought: again\nAction: click(ref='{ref}')")
        assert res.outcome == "rejected" and res.executed.stale_ref and res.executed.fp_before is None
        assert "no longer on the page" in res.feedback
        fresh = await h.observe()
        assert (
            'button "Seat 14C held - confirm below"' in fresh.snapshot
            and f"[ref={ref}]" not in fresh.snapshot
        )
        assert h.executor.stale_refs == 1
        inp = h.model_input("t")
        assert (
            inp.snapshot == fresh.snapshot
            and len(inp.snapshot_stubs) == 2
            and "omitted" in inp.snapshot_stubs[0]
        )


async def test_ref_from_before_back_is_refused(session, sites):
    async with harness_on(session, sites.url("/struct/reports"), observation="structured") as h:
        obs = await h.observe()
        link = ref_of(obs.snapshot, r'link "Airport station report"')
        await h.step(f"Thought: open\nAction: click(ref='{link}')")
        report = await h.observe()
        heading = ref_of(report.snapshot, r'heading "Airport station report"')
        await h.step("Thought: back\nAction: back()")
        back = await h.observe()
        assert "Last opened: RPT-" in back.snapshot
        res = await h.step(f"Thought: old ref\nAction: click(ref='{heading}')")
        assert res.outcome == "rejected" and "no longer on the page" in res.feedback
        assert h.page.url.endswith("/struct/reports")


async def test_big_register_fits_budget_and_find_reaches_the_middle(session, sites):
    # The whole-tree path (snapshot_scoping off: the winner's way). A 500 KB snapshot takes
    # ~0.5-2 s on an idle 2-core machine; the generous timeout keeps the test about truncation,
    # not about how busy the machine is. The scoped path: tests/observation/test_scoped_snapshot.py.
    async with harness_on(
        session,
        sites.url("/struct/stations"),
        observation="structured",
        snapshot_timeout_ms=60_000,
        disable=["snapshot_scoping"],
    ) as h:
        obs = await h.observe()
        info = obs.snapshot_info
        assert info.bytes > 500_000 and info.truncated
        assert len(obs.snapshot.encode()) <= 48_000 and info.shown_bytes == len(obs.snapshot.encode())
        assert "rows omitted (snapshot(ref=" in obs.snapshot and f"ST-{ANSWER_ROW:04d}" not in obs.snapshot
        refs = [n.ref for n in st.parse(obs.snapshot) if n.ref]
        for ref in refs[:: max(1, len(refs) // 25)]:  # printed refs resolve (a sample, 2 ms each)
            assert await h.page.locator(f"aria-ref={ref}").count() == 1, ref
        res = await h.step(f"Thought: search\nAction: find(text='ST-{ANSWER_ROW:04d}')")
        row = re.search(r"row[^\n]*?\[ref=((?:f\d+)?e\d+)\]\)", res.feedback)
        assert row, res.feedback
        res = await h.step(f"Thought: open\nAction: snapshot(ref='{row.group(1)}')")
        assert station_value(0) in res.feedback
        res = await h.step("Thought: x\nAction: snapshot(ref='e99999999')")
        assert res.outcome == "failed" and "not in the latest snapshot" in res.feedback


async def test_pua_guard_and_hybrid_prompt(session, sites):
    async with harness_on(session, sites.url("/rankings"), observation="hybrid") as h:
        obs = await h.observe()
        assert obs.snapshot_info.guard_firings.get("text", 0) > 0
        assert "[obfuscated text:" in obs.snapshot and "use read_text" in obs.snapshot
        inp = h.model_input("t")
        assert len(inp.images) == 1 and inp.snapshot == obs.snapshot
        assert "[obfuscated text: …]" in h.system_prompt and "ref='e12' or start_box=" in h.system_prompt
