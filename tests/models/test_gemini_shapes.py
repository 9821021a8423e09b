"""`--model gemini:MODEL --base-url URL` end to end: `run_task` builds the client from the spec
string (its row: function declarations, Gemini's 0-999 grid), talks to a loopback server that
answers with google-genai's own types, and real Chromium shows what reached the page."""

from __future__ import annotations

import pytest

from tests.models.fake_llm import Answer, fake_llm
from tests.models.shape_support import GO_CSS, NAME_CSS, PAGES, read, values
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.models.conventions import encode_point
from webfovea.observation.sizing import harness_config
from webfovea.task import Task
from webfovea_proving_ground.providers.gemini_replies import (
    candidate,
    function_call_part,
    gemini_response,
    text_part,
    thought_part,
)

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")


def norm(css: tuple[int, int]) -> list[int]:
    return list(encode_point("norm999", css[0], css[1], 1920, 1080))


def said(*parts: dict, finish: str = "STOP") -> Answer:
    return Answer(200, gemini_response(candidate(*parts, finish_reason=finish)))


async def test_a_spec_string_run_saves_the_name_then_a_blocked_prompt_ends_it(session, tmp_path, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    fill = function_call_part("fill", {"start_box": norm(NAME_CSS), "content": "Ada Lovelace"})
    script = [
        said(
            thought_part("Action: finished(content='a thought, not the answer')"), text_part("type it"), fill
        ),
        said(function_call_part("click", {"start_box": norm(GO_CSS)})),
        said(finish="SAFETY"),  # withheld: nothing runs
        Answer(200, gemini_response(block_reason="PROHIBITED_CONTENT")),
    ]
    with serve_pages(PAGES) as site, fake_llm(script, warm_apis=()) as llm:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        await run_task(
            task,
            tmp_path / "t",
            session=session,
            model="gemini:gemini-2.5-flash",
            # The spec's row sets the grid, as the CLI's config does (make_config() stays in pixels).
            config=harness_config(model="gemini:gemini-2.5-flash", disable=["verifier"]),
            base_url=llm.base_url,
            model_options={"budget_s": 20, "base_delay_s": 0.05},
        )
    result, steps = read(tmp_path / "t")
    assert values(site.log, "/saved") == ["Ada Lovelace"]  # the points were read on the 0-999 grid
    assert [s["outcome"] for s in steps[:3]] == ["executed", "executed", "rejected"]
    assert "finishReason=SAFETY" in steps[2]["rejection"]
    assert (
        result["status"] == "model_error"
        and "promptFeedback.blockReason=PROHIBITED_CONTENT" in result["error"]
    )
    assert all(r.headers.get("x-goog-api-key") == "" for r in llm.received)  # keyless: no credential


# A page that reports where each click landed, in CSS px of the 1920x1080 viewport.
CLICK_PAGE = """<html><body style="margin:0"><div style="position:fixed;inset:0"
  onclick="fetch('/clicked?v='+event.clientX+','+event.clientY)">anywhere</div></body></html>"""


async def test_the_grid_centre_lands_at_the_page_centre_with_a_pixels_config(session, tmp_path, monkeypatch):
    # make_config() says pixels; Gemini answers on its 0-999 grid all the same, so its row wins.
    # Read as pixels of the 1440x810 image, (500, 500) landed at (667, 667) CSS px.
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    script = [said(function_call_part("click", {"start_box": [500, 500]}))]
    pages = {"/": CLICK_PAGE, "/clicked": "ok"}
    with serve_pages(pages) as site, fake_llm(script, warm_apis=()) as llm:
        task = Task(task_id="t", task="Click the middle", website=site.url("/"))
        result = await run_task(
            task,
            tmp_path / "t",
            session=session,
            model="gemini:gemini-2.5-flash",
            config=make_config(disable=["verifier"], max_steps=1),
            base_url=llm.base_url,
            model_options={"budget_s": 20, "base_delay_s": 0.05},
        )
    x, y = (int(v) for v in values(site.log, "/clicked")[0].split(","))
    assert abs(x - 961) <= 1 and abs(y - 540) <= 1, (x, y)  # the centre of cell 500: 500.5/1000
    assert result.config["coordinate_convention"] == "norm999"  # what the record says was read
