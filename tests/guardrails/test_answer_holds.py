"""Answer checks hold a right answer only on evidence against it (guardrails/ocr_check.py,
harness/review.py), on real Chromium and loopback pages, with no verifier asked (where the OCR
check holds by itself): a figure drawn on a viewer's canvas that the page text read lacks, and
an answer a user's tool gave, stand at the first `finished`; page text in view whose place on
the screen shows other figures holds the answer once, and the records say why."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.guardrails.test_verifier import ACCEPT, PAGE, REJECT, Roles
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.actions.catalog import register_tools, unregister_tools
from webfovea.actions.user_tools import user_tool
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record import read_trajectory
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")

# A pdf.js-like viewer: its toolbar and heading are page text, the document's figures are pixels
# on a canvas (no text layer), so read_text/find_text never return them.
VIEWER = """<style>body { font: 20px sans-serif; margin: 0 }</style>
<div id="bar" style="background:#333;color:#fff;padding:8px">invoice.pdf — page 1 of 1</div>
<h2 style="margin:12px">Invoice</h2>
<canvas id="c" width="700" height="220"></canvas><script>
const g = document.getElementById('c').getContext('2d');
g.fillStyle = 'white'; g.fillRect(0, 0, 700, 220);
g.fillStyle = 'black'; g.font = '44px sans-serif'; g.fillText('Total due: 8436 EUR', 30, 120);
</script>"""

# Page text left stale under the figure the screen shows: the text holds 4242 in view, and an
# opaque box drawn over it shows 7315.
STALE = """<style>body { font: 32px sans-serif }</style><h1>Balance</h1>
<div style="position:relative;height:70px">
<span id="old">4242</span>
<div style="position:absolute;left:0;top:0;width:320px;height:70px;background:#fff">7315</div>
</div>"""


def act(action: str) -> str:
    return f"Thought: x\nAction: {action}"


async def _run(session: Any, tmp_path: Path, page: str, replies: list[str], answer: str) -> Any:
    model = ScriptedModel(replies)
    with serve_pages({"/": page}) as srv:
        task = Task(task_id="t", task="What is the figure?", website=srv.url("/"), answer=answer)
        result = await run_task(
            task, tmp_path / "t", model=model, config=make_config(disable=["verifier"]), session=session
        )
    return result, model


@needs_tesseract
async def test_a_figure_on_a_viewers_canvas_the_text_read_lacks_stands(session: Any, tmp_path: Path) -> None:
    result, model = await _run(
        session,
        tmp_path,
        VIEWER,
        [act("read_text(near='Invoice')"), act("finished(content='8436')")],
        "8436",
    )
    assert result.status == "finished" and result.answer == "8436"
    assert result.steps == 2 and result.holds is None and model.calls == 2
    ocr = result.evidence["ocr"]
    assert ocr["in_ocr"] is True and ocr["in_text"] is False and ocr["mismatch"] is False, ocr
    recs = read_trajectory(tmp_path / "t" / "trajectory.jsonl")
    assert not any(r.ocr_held or r.hold_why for r in recs)


@needs_tesseract
async def test_an_answer_from_a_users_tool_stands(session: Any, tmp_path: Path) -> None:
    async def order_total(ctx: Any, order: str) -> str:
        return f"The total of order {order} is 52917."

    tools = register_tools(
        user_tool("order_total", order_total, purpose="An order's total.", params=("order",))
    )
    try:
        result, model = await _run(
            session,
            tmp_path,
            "<h1>Your orders</h1><p>Ask the order desk for totals.</p>",
            [act("order_total(order='A1')"), act("finished(content='52917')")],
            "52917",
        )
    finally:
        unregister_tools(tools)
    assert result.status == "finished" and result.steps == 2 and result.holds is None
    ocr = result.evidence["ocr"]
    assert ocr["in_ocr"] is False and ocr["mismatch"] is False and ocr["note"] is None, ocr
    assert "no evidence against it" in ocr["why"]


@needs_tesseract
async def test_text_in_view_whose_place_shows_other_figures_holds_once_and_says_why(
    session: Any, tmp_path: Path
) -> None:
    result, model = await _run(
        session,
        tmp_path,
        STALE,
        [act("find_text(text='4242')"), act("finished(content='4242')"), act("finished(content='7315')")],
        "7315",
    )
    assert result.status == "finished" and result.answer == "7315" and result.steps == 3
    [hold] = result.holds
    assert hold["step"] == 1 and hold["check"] == "ocr_check" and "7315" in hold["why"]
    recs = read_trajectory(tmp_path / "t" / "trajectory.jsonl")
    assert [r.ocr_held for r in recs] == [False, True, False]
    assert recs[1].hold_why == hold["why"] and recs[2].hold_why is None
    assert "7315" in (model.seen[2].feedback or "")  # the agent was told what the screen shows
    assert result.evidence["ocr"]["mismatch"] is False  # the answer that stood is on the screen


async def test_a_verifiers_rejection_is_recorded_with_its_reason(session: Any, tmp_path: Path) -> None:
    model = Roles(
        ScriptedModel(
            [act("read_text(near='Peru')"), act("finished(content='9.9')"), act("finished(content='2.1')")]
        ),
        ScriptedModel([REJECT, ACCEPT]),
    )
    with serve_pages({"/": PAGE, "/api/cpi.json": b'{"peru": "2.1"}'}) as srv:
        task = Task(task_id="t", task="What is the CPI of Peru?", website=srv.url("/"), answer="2.1")
        result = await run_task(
            task, tmp_path / "t", model=model, config=make_config(disable=["ocr_check"]), session=session
        )
    assert result.answer == "2.1"
    why = "the verifier rejected it: 9.9 is the key-figures box, not Peru's row."
    assert result.holds == [{"step": 1, "check": "verifier", "why": why}]
    assert [r.hold_why for r in read_trajectory(tmp_path / "t" / "trajectory.jsonl")] == [None, why, None]
