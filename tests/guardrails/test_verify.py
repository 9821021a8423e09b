"""The verify gate on real Chromium: a form whose "Saved" toast lies (the server stored nothing).

With `verify` on, the first finished of a state-changing task is held, the page is loaded
again from the server and the model is told to compare; with it off the task ends at once.
"""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page

from tests.support.saves import serve_saves
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.taxonomy import Checks, classify, stage_of
from webfovea.feedback.notes import VERIFY_OPENING
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.record import read_trajectory
from webfovea.task import Task

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

# Sent image 1440x810 of a 1920x1080 viewport: CSS x 0.75.
FILL = "Thought: I type the title.\nAction: fill(start_box='<|box_start|>(225,90)<|box_end|>', content='Water data 2024')"
SAVE = "Thought: I press Save.\nAction: click(start_box='<|box_start|>(457,91)<|box_end|>')"
DONE = "Thought: The request is saved.\nAction: finished(content='saved')"


class Scripted:
    """Replies from a list; records what it was shown (feedback, the page's list) at each call."""

    can_verify = False  # a script: the verifier stays off for it (models/base.py verify_refusal)

    def __init__(self, replies: list[str], page_of: list[Page]) -> None:
        self.replies = list(replies)
        self.page_of = page_of
        self.seen: list[tuple[str | None, str]] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        page = self.page_of[0]
        shown = await page.evaluate("document.getElementById('items')?.innerText || ''")
        self.seen.append((inp.feedback, shown))
        return ModelReply(self.replies.pop(0), Usage(1, 1))

    async def aclose(self) -> None:
        pass


async def _run(
    session, tmp_path, replies, *, verify: bool, lie_first: int = 1, verify_path: str | None = None
):
    config = make_config(disable=[] if verify else ["verify"], max_steps=12)
    with serve_saves(lie_first=lie_first) as site:
        task = Task(
            task_id="save-1",
            task="Save a data request titled 'Water data 2024'.",
            website=site.url("/form"),
            state_changing=True,
            verify_url=site.url(verify_path) if verify_path else None,
        )
        pages: list[Page] = []
        orig = session.fresh_page

        async def fresh_page():
            p = await orig()
            pages.append(p)
            return p

        session.fresh_page = fresh_page  # the module's session: put back below
        try:
            model = Scripted(replies, pages)
            result = await run_task(
                task, tmp_path / "t", model=model, config=config, session=session, capture=False
            )
        finally:
            del session.fresh_page
        items = list(site.items)
    steps = [json.loads(line) for line in (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()]
    return result, steps, items, model


async def test_verify_off_ends_at_the_first_finished(session, tmp_path):
    result, steps, items, model = await _run(session, tmp_path, [FILL, SAVE, DONE], verify=False)
    assert result.status == "finished" and result.steps == 3
    assert items == []  # the toast said Saved; the server holds nothing
    assert not any(s["verification_requested"] for s in steps)
    assert model.replies == []
    # The recorded run, labelled the way the summary labels it, with the server's state as the check.
    records = read_trajectory(tmp_path / "t")
    checks = Checks(positives_ok="Water data 2024" in items)
    assert classify(result, records, checks) == "misleading_success_taken"
    assert stage_of(result, records, checks, answer_expected=True) == "model"


async def test_verify_on_shows_the_real_list_and_accepts_the_second_finished(session, tmp_path):
    result, steps, items, model = await _run(
        session, tmp_path, [FILL, SAVE, DONE, DONE], verify=True, verify_path="/list"
    )
    assert result.status == "finished" and result.steps == 4  # the check cost one step
    assert [s["verification_requested"] for s in steps] == [False, False, True, False]
    feedback, shown = model.seen[3]
    assert feedback.startswith(VERIFY_OPENING) and "/list" in feedback
    assert "No saved requests" in shown  # reloaded from the server: the lie is visible
    assert json.loads((tmp_path / "t" / "result.json").read_text())["steps"] == 4
    assert items == []


async def test_verify_on_lets_the_model_redo_the_save(session, tmp_path):
    result, steps, items, model = await _run(
        session, tmp_path, [FILL, SAVE, DONE, FILL, SAVE, DONE], verify=True
    )
    assert result.status == "finished" and result.steps == 6
    assert steps[2]["verification_requested"] and "reloaded the page" in model.seen[3][0]
    assert "No saved requests" in model.seen[3][1]  # the form page, loaded again from the server
    assert items == ["Water data 2024"]  # the redo really reached the server
