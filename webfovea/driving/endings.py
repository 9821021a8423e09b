"""How a task ends: one table from a stop reason to the status result.json records.

A stop reason comes from the harness (`StepResult.stop_reason`: the model's `finished`, a
breaker), from the driver's budgets (steps, tokens and money, wall clock, tool timeouts), or from what was
raised (the model, the page, the browser, a cancel). Every driver of a task (the agent loop,
the MCP server) ends it through this table, so the same ending is recorded under the same
status whoever drove the task.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from webfovea.browser.session import BrowserLost, is_browser_lost
from webfovea.browser.world import PageUnresponsive
from webfovea.config import HarnessConfig
from webfovea.harness.results import StepResult
from webfovea.models.base import ModelError
from webfovea.record.schema import Status

Reason = Literal[
    # the harness (harness/results.py StopReason)
    "finished",
    "stale_refs",
    "scroll_breaker",
    "loop_breaker",
    # the task's environment (driving/environment.py)
    "env_done",
    # the driver's budgets
    "max_steps",
    "budget",
    "timeout",
    "tool_timeout",
    # what was raised
    "model_error",
    "page_unresponsive",
    "browser_lost",
    "interrupted",
    "error",
]

STOP_STATUS: dict[Reason, Status] = {
    "finished": "finished",
    "stale_refs": "stale_refs",
    "scroll_breaker": "scroll_breaker",
    "loop_breaker": "loop_breaker",
    "env_done": "env_done",
    "max_steps": "max_steps",
    "budget": "budget_exceeded",
    "timeout": "timeout",
    "tool_timeout": "tool_timeout",
    "model_error": "model_error",
    "page_unresponsive": "page_unresponsive",
    "browser_lost": "browser_error",
    "interrupted": "interrupted",
    "error": "error",
}


@dataclass(frozen=True)
class Ending:
    """How one task ended, as result.json records it."""

    status: Status
    error: str | None = None
    answer: str | None = None  # finished(content); None for every other ending
    answer_value: Any = None  # the typed value of an answer that met the task's schema


def _known(reason: str) -> TypeGuard[Reason]:
    return reason in STOP_STATUS


def ending(reason: str, error: str | None = None, answer: str | None = None) -> Ending:
    """The ending for a stop reason; a reason the table does not know is an error, named."""
    if not _known(reason):
        return Ending("error", f"unknown stop reason {reason!r}: {error or ''}".rstrip(": "))
    return Ending(STOP_STATUS[reason], error, answer)


def step_ending(res: StepResult) -> Ending:
    """The ending of a step the harness marked done: `finished` with its answer, or a breaker."""
    if res.stop_reason == "finished":
        how = ending("finished", answer=res.answer or "")
        return Ending(how.status, how.error, how.answer, res.answer_value)
    return ending(res.stop_reason or "error", res.error)


def raised_ending(e: BaseException, config: HarnessConfig, *, clock_spent: bool) -> Ending:
    """The ending for what was raised while driving the task. A TimeoutError is the task's own
    wall clock when it is spent, else one bounded wait inside the task (a tool timeout)."""
    if isinstance(e, TimeoutError):
        if clock_spent:
            return ending("timeout", f"wall-clock budget of {config.max_seconds:g} s spent")
        return ending("tool_timeout", f"a step did not complete within {config.tool_timeout_s:g} s")
    if isinstance(e, ModelError):
        return ending("model_error", str(e))
    if isinstance(e, PageUnresponsive):
        return ending("page_unresponsive", str(e))
    if isinstance(e, BrowserLost):
        return ending("browser_lost", f"browser lost: {e}")
    if isinstance(e, asyncio.CancelledError):
        return ending("interrupted", "the run was interrupted")
    if isinstance(e, KeyboardInterrupt):
        return ending("interrupted", "the run was interrupted (Ctrl-C)")
    if is_browser_lost(e):
        return ending("browser_lost", f"browser lost: {first_line(e)}")
    return ending("error", f"{type(e).__name__}: {first_line(e)}")


def first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else ""
