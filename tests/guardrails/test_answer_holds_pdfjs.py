"""The answer checks on a real pdf.js viewer (pdfjs-dist from npm: its PDFViewer draws each page
on a canvas under a transparent text layer): a right answer read from the document stands at
the first `finished` — no false hold (false holds measured on a real PDF viewer page; tests/guardrails/test_answer_holds.py has the canvas-only viewer and the holds that must
happen)."""

from __future__ import annotations

import mimetypes
import shutil
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from tests.support.npm import npm_folder
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record import read_trajectory
from webfovea.task import Task

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed"),
]
PDFJS = "pdfjs-dist@4.10.38"
mimetypes.add_type("text/javascript", ".mjs")  # module scripts are refused under another type

VIEWER = """<!doctype html><link rel="stylesheet" href="/pdfjs/web/pdf_viewer.css">
<style>body { margin: 0 } #c { position: absolute; inset: 0; overflow: auto; background: #888 }</style>
<div id="c"><div id="viewer" class="pdfViewer"></div></div>
<script type="module">
const lib = await import('/pdfjs/build/pdf.mjs');
lib.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.mjs';
globalThis.pdfjsLib = lib;  // the viewer components read the library from here
const v = await import('/pdfjs/web/pdf_viewer.mjs');
const eventBus = new v.EventBus(), linkService = new v.PDFLinkService({ eventBus });
const viewer = new v.PDFViewer({ container: document.getElementById('c'), eventBus, linkService });
linkService.setViewer(viewer);
eventBus.on('pagesinit', () => { viewer.currentScaleValue = 'page-width'; });
const doc = await lib.getDocument('/invoice.pdf').promise;
viewer.setDocument(doc); linkService.setDocument(doc);
</script>"""


def _invoice() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=28)
    pdf.cell(0, 20, "Invoice 2026-117", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=22)
    pdf.cell(0, 16, "Total due: 8436 EUR", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def act(action: str) -> str:
    return f"Thought: x\nAction: {action}"


async def _run(session: Any, tmp_path: Path, replies: list[str]) -> tuple[Any, ScriptedModel]:
    pages: dict[str, str | bytes] = {
        "/": VIEWER,
        "/invoice.pdf": _invoice(),
        **npm_folder(PDFJS, "build", "/pdfjs/build"),
        **npm_folder(PDFJS, "web", "/pdfjs/web"),
    }
    model = ScriptedModel(replies)
    with serve_pages(pages) as srv:
        task = Task(task_id="t", task="What is the total due?", website=srv.url("/"), answer="8436")
        config = make_config(disable=["verifier"])
        result = await run_task(task, tmp_path / "t", model=model, config=config, session=session)
    return result, model


async def test_a_right_answer_on_pdfjs_stands_at_once(session: Any, tmp_path: Path) -> None:
    result, model = await _run(
        session, tmp_path, [act("wait()"), act("read_text(near='Total')"), act("finished(content='8436')")]
    )
    assert "8436" in (model.seen[2].feedback or ""), model.seen[2].feedback  # the viewer did render it
    assert result.status == "finished" and result.answer == "8436"
    assert result.holds is None and model.calls == 3, result.holds
    assert not any(r.ocr_held for r in read_trajectory(tmp_path / "t" / "trajectory.jsonl"))
