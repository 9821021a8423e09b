"""One task driven by an MCP client: the browser, the harness, the task folder and the budgets.

The client plays the model: each action tool call is one step. The harness is set up as the
agent loop sets it up (`agent.task_harness`: site guard, downloads, verify gate, session). The step goes through
`Harness.step` with the reply text the call stands for, and is recorded with the agent's
own step record (`webfovea.agent`), so a task folder written here reads like one written
by `bench`: trajectory.jsonl, step_NNN.png (as sent) and step_NNN_marked.png, capture.json,
and result.json. The task budgets are the agent loop's: steps, wall clock, three tool
timeouts in a row; per-action budgets and the scroll breaker apply inside the harness.

Every exit path writes result.json: `finished`, a spent budget, a lost browser, the client
disconnecting (status `interrupted`), the server being stopped, or a failed start.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from webfovea.browser.session import BrowserLost, BrowserSession, is_browser_lost
from webfovea.config import HarnessConfig
from webfovea.driving.records import step_record
from webfovea.driving.start import task_harness
from webfovea.feedback import notes
from webfovea.guardrails.budgets import TaskBudget
from webfovea.harness import Harness, Observation, StepResult
from webfovea.models.base import ModelReply
from webfovea.record.atomic import now_iso
from webfovea.record.capture import Capture, start_capture
from webfovea.record.files import config_fields
from webfovea.record.redact import redact_text
from webfovea.record.schema import TaskResult, UsageTotals
from webfovea.record.writer import TaskRecorder
from webfovea.task import Task


class TaskClosed(RuntimeError):
    """The task has ended; str(e) says how and what the client can do."""


class ObserveFailed(RuntimeError):
    """No screenshot this time (the task goes on); str(e) is the note for the client."""


@dataclass
class Launch:
    """Where the browser comes from: a new local Chromium, or a running one over CDP."""

    cdp_url: str | None = None
    headless: bool = True


class McpTask:
    def __init__(
        self,
        task: Task,
        task_dir: Path,
        config: HarnessConfig,
        *,
        launch: Launch | None = None,
        model: str | None = None,
        capture: bool = True,
    ) -> None:
        self.task = task
        self.dir = Path(task_dir)
        self.config = config
        self.launch = launch or Launch()
        self.capture_on = capture
        self.recorder = TaskRecorder(self.dir)
        self.result = TaskResult(
            task_id=task.task_id,
            status="error",
            task=task.task,
            website=task.website,
            model=f"mcp:{model}" if model else "mcp",
            started_at=now_iso(),
            **config_fields(config),
        )
        self.budget = TaskBudget.of(config)
        self.steps = 0
        self.closed = False
        self.harness: Harness | None = None
        self._session: BrowserSession | None = None
        self._capture: Capture | None = None
        self._lock = asyncio.Lock()  # one tool at a time: the page is one
        self._t0 = time.monotonic()

    # lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the browser on the start page; on failure the task is closed with the reason."""
        self._t0 = self.budget.started = time.monotonic()
        try:
            vp = (self.config.viewport_width, self.config.viewport_height)
            if self.launch.cdp_url:
                self._session = await BrowserSession.connect(self.launch.cdp_url, viewport=vp)
            else:
                self._session = await BrowserSession.launch(viewport=vp, headless=self.launch.headless)
            page = await self._session.fresh_page()
            if self.capture_on:
                self._capture = await start_capture(page, self.dir)
            self.harness, self.result.session_id = await task_harness(
                page, self.task, self.config, self.dir, self._capture
            )
            await self.harness.goto(self.task.website)
        except asyncio.CancelledError:  # stopped (SIGTERM, Ctrl-C) while starting
            await asyncio.shield(self.close("interrupted", f"stopped while opening {self.task.website}"))
            raise
        except BaseException as e:
            status = "browser_error" if is_browser_lost(e) else "error"
            await self.close(status, f"could not open {self.task.website}: {_first_line(e)}")
            raise

    async def close(self, status: str, error: str | None = None, answer: str | None = None) -> None:
        """End the task: result.json first (the client may kill us soon), then the browser."""
        if self.closed:
            return
        self.closed = True
        self.result.status = status  # type: ignore[assignment]
        self.result.error = redact_text(error)  # never echo credentials to the client or the folder
        self.result.answer = answer
        self.result.steps = self.steps
        self.result.usage = UsageTotals(model_calls=self.steps)  # the client's tokens are not ours to see
        self.result.seconds = round(time.monotonic() - self._t0, 3)
        self.result.ended_at = now_iso()
        self.recorder.write_result(self.result)
        for closer in (
            self.harness.release() if self.harness else None,
            self._capture.finish() if self._capture else None,
            self._session.close() if self._session else None,
        ):
            await _quietly(closer)
        self._capture = self._session = None

    # the tools ----------------------------------------------------------------------------
    async def observe(self) -> Observation:
        async with self._lock:
            h = await self._ready()
            try:
                return await asyncio.wait_for(h.observe(), self.config.tool_timeout_s)
            except BrowserLost as e:
                await self.close("browser_error", f"browser lost: {e}")
                raise TaskClosed(self.closed_note()) from None
            except TimeoutError:
                raise ObserveFailed(
                    f"The screenshot did not complete within {self.config.tool_timeout_s:g} s; "
                    "try observe again."
                ) from None

    async def act(self, reply: str) -> StepResult:
        """One step: the reply text goes through Harness.step, the step is recorded, the
        task's budgets are applied and the task closed when it ends."""
        async with self._lock:
            h = await self._ready()
            if self.budget.steps_spent():
                await self.close(
                    "max_steps", f"step budget of {self.config.max_steps} spent without an answer"
                )
                raise TaskClosed(self.closed_note())
            try:
                res = await asyncio.wait_for(
                    h.step(reply), min(self.config.tool_timeout_s, self._seconds_left())
                )
                self.budget.tool_completed()
            except TimeoutError:
                if self._seconds_left() <= 0.001:
                    await self.close("timeout", f"wall-clock budget of {self.config.max_seconds:g} s spent")
                    raise TaskClosed(self.closed_note()) from None
                text = notes.tool_timeout(self.config.tool_timeout_s)
                h.last_feedback = h.notes.refusal(text) or None
                res = StepResult(None, h.notes.refusal(text), error=text)
                if self.budget.tool_timed_out():
                    self._record(reply, res)
                    await self.close(
                        "tool_timeout", f"{self.budget.timeouts_in_a_row} consecutive tool timeouts"
                    )
                    return res
            except BrowserLost as e:
                await self.close("browser_error", f"browser lost: {e}")
                raise TaskClosed(self.closed_note()) from None
            self._record(reply, res)
            if res.done:
                if res.stop_reason == "finished":
                    await self.close("finished", answer=res.answer or "")
                else:
                    await self.close("scroll_breaker", res.error)
            return res

    async def reject(self, reply: str, reason: str) -> StepResult:
        """A call the harness will not execute (unknown tool, bad arguments): recorded as a
        rejected step, as an unreadable reply is in `bench`, and counted against the budget."""
        async with self._lock:
            h = await self._ready()
            feedback = h.notes.refusal(notes.not_executed(reason))
            h.last_feedback = feedback or None
            res = StepResult(None, feedback, error=reason, outcome="rejected")
            self._record(reply, res)
            return res

    # helpers ------------------------------------------------------------------------------
    async def _ready(self) -> Harness:
        if not self.closed and self.harness is not None and self._seconds_left() <= 0.001:
            await self.close("timeout", f"wall-clock budget of {self.config.max_seconds:g} s spent")
        if self.closed or self.harness is None:
            raise TaskClosed(self.closed_note())
        return self.harness

    def _seconds_left(self) -> float:
        return self.budget.seconds_left()

    def _record(self, reply: str, res: StepResult) -> None:
        self.recorder.append(step_record(self.steps, ModelReply(reply), res, self.recorder))
        self.steps += 1
        self.budget.steps = self.steps

    def closed_note(self) -> str:
        r = self.result
        how = f"answer {r.answer!r}" if r.status == "finished" else (r.error or r.status)
        return (
            f"The task is over (status {r.status}: {how}); its folder is {self.dir}. "
            "Start the server again for a new task."
        )


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


async def _quietly(coro: object) -> None:
    if coro is None:
        return
    try:
        await asyncio.wait_for(coro, 10)  # type: ignore[arg-type]
    except BaseException:  # noqa: BLE001 - cleanup must not mask the task's own outcome
        pass
