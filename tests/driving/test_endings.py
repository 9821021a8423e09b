"""One table from a stop reason to a result status: every reason the harness stops a task for
has a row, every row is a status result.json admits, and what is raised maps the same way
whoever drives the task."""

from __future__ import annotations

import asyncio
from typing import get_args

from webfovea.browser.session import BrowserLost
from webfovea.browser.world import PageUnresponsive
from webfovea.config import make_config
from webfovea.driving.endings import STOP_STATUS, Reason, ending, raised_ending, step_ending
from webfovea.harness.results import StepResult, StopReason
from webfovea.models.base import ModelError
from webfovea.record.schema import Status

CONFIG = make_config(max_seconds=30, tool_timeout_s=7)


def test_every_stop_reason_has_a_row_and_every_row_a_status():
    assert set(get_args(StopReason)) <= set(STOP_STATUS)
    assert set(STOP_STATUS) == set(get_args(Reason))
    assert set(STOP_STATUS.values()) <= set(get_args(Status))
    # Every status but the runner's own (a worker that died) can be reached from the table.
    assert set(get_args(Status)) - set(STOP_STATUS.values()) == {"worker_lost"}


def test_a_breaker_keeps_its_name_and_finished_its_answer():
    for reason in ("scroll_breaker", "loop_breaker", "stale_refs"):
        how = step_ending(StepResult(None, "", done=True, stop_reason=reason, error="Stopped: x"))
        assert (how.status, how.error, how.answer) == (reason, "Stopped: x", None)
    how = step_ending(StepResult(None, "", done=True, stop_reason="finished", answer="42"))
    assert (how.status, how.answer) == ("finished", "42")


def test_an_unknown_reason_is_an_error_that_names_it():
    how = ending("idle_breaker", "Stopped: idle")
    assert how.status == "error" and "idle_breaker" in how.error


def test_what_is_raised_maps_to_its_status():
    def status(e: BaseException, spent: bool = False) -> str:
        return raised_ending(e, CONFIG, clock_spent=spent).status

    assert status(TimeoutError(), spent=True) == "timeout"
    assert status(TimeoutError()) == "tool_timeout"
    assert "within 7 s" in raised_ending(TimeoutError(), CONFIG, clock_spent=False).error
    assert status(ModelError("down")) == "model_error"
    assert status(PageUnresponsive("stuck")) == "page_unresponsive"
    assert status(BrowserLost("gone")) == "browser_error"
    assert status(RuntimeError("Target page, context or browser has been closed")) == "browser_error"
    assert status(asyncio.CancelledError()) == "interrupted"
    assert status(KeyboardInterrupt()) == "interrupted"
    assert raised_ending(ValueError("bad\nmore"), CONFIG, clock_spent=False).error == "ValueError: bad"
