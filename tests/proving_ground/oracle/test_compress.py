"""The oracle answers a history-compression call with a faithful summary of its own progress and
still finishes the task right: a built-in task on the real proving ground with a budget so small
that compression fires after the first few steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.observation.compress import estimate_tokens
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_oracle_summarises_its_progress_and_still_answers(sites, session, tmp_path: Path, monkeypatch):
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)  # the task binds its environment session
    task = next(t for t in load_builtin_suite(sites) if t.task_id == "stats-date-select-01")
    probe = make_config(screenshot_window=1)
    # What every step costs before any history: prompt, task, one 1440x810 screenshot.
    base = estimate_tokens(Harness(None, probe).model_input(task.task)) + 1440 * 810 // 750
    config = make_config(screenshot_window=1, context_tokens=int((base + 120) / 0.75))
    result = await run_task(
        task,
        tmp_path / task.task_id,
        model="oracle",
        config=config,
        session=session,
        capture=False,
        model_options={"contaminate_rate": 0.0, "continuation_rate": 0.0},
    )
    assert result.status == "finished" and result.answer == str(task.answer)
    steps = [
        json.loads(line) for line in (tmp_path / task.task_id / "trajectory.jsonl").read_text().splitlines()
    ]
    events = [s["compression"] for s in steps if s["compression"]]
    assert events, "compression never fired"
    first = events[0]
    assert first["status"] == "summarised" and first["model_called"]
    summary = first["summary"]
    for heading in (
        "Objective:",
        "Completed operations:",
        "Current page state:",
        "Key information:",
        "Remaining steps:",
    ):
        assert heading in summary
    assert task.task.strip() in summary and "plan step" in summary
    assert result.usage.model_calls == len(steps) + len(events)
