"""One task driven by an MCP client: the client plays the model, the task driver does the rest.

Each action tool call is one step, handed to `Harness.step` as the tool call it is (the same
parser as a native-tool model's call, `parsing/tool_call.py`) by the task driver that
`agent.run_task` uses (`webfovea.driving`): the same harness set-up (site guard, downloads,
verify gate, session), the same step record, the same budgets (steps, wall clock, three tool
timeouts in a row), the same table from a stop reason to a status. So a task folder written
here reads like one written by `bench`: trajectory.jsonl (raw_reply: the call in the text
grammar), step_NNN.png (as sent) and step_NNN_marked.png, capture.json, and result.json.

Every exit path writes result.json: `finished`, a breaker (scroll, loop, stale refs), a spent
budget, a lost browser, the client disconnecting (status `interrupted`), the server being
stopped, or a failed start.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from webfovea.config import HarnessConfig
from webfovea.driving.driver import BrowserSource, DriverSettings, TaskDriver
from webfovea.driving.endings import Ending, first_line, raised_ending
from webfovea.feedback import notes
from webfovea.guardrails.verifier import off_note
from webfovea.harness import Harness, Observation, StepResult
from webfovea.models.base import ModelReply, ToolCall, Usage
from webfovea.record.schema import Status, TaskResult
from webfovea.task import Task

Launch = BrowserSource  # where the browser comes from (cdp_url, headless): the driver's own


class TaskClosed(RuntimeError):
    """The task has ended; str(e) says how and what the client can do."""


class ObserveFailed(RuntimeError):
    """No screenshot this time (the task goes on); str(e) is the note for the client."""


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
        again: str = "Start the server again for a new task.",
    ) -> None:
        self.task = task
        self.again = again  # what closed_note tells the client to do for another task
        self.config = config
        settings = DriverSettings(
            config,
            f"mcp:{model}" if model else "mcp",
            launch or Launch(),
            capture=capture,
            calls_as_text=True,
        )
        self.driver = TaskDriver(task, Path(task_dir), settings)
        self._lock = asyncio.Lock()  # one tool at a time: the page is one

    # what the server reads ----------------------------------------------------------------
    @property
    def dir(self) -> Path:
        return self.driver.dir

    @property
    def harness(self) -> Harness | None:
        return self.driver.harness

    @property
    def result(self) -> TaskResult:
        return self.driver.result

    @property
    def steps(self) -> int:
        return self.driver.steps

    @property
    def closed(self) -> bool:
        return self.driver.closed

    # lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the browser on the start page; on failure the task is closed with the reason."""
        try:
            harness = await self.driver.open()
            if harness.verifier.active and harness.verifier.model is None:
                # No --verifier: the agent is the MCP client, which the server cannot ask for a
                # verdict in a fresh context; result.json says so rather than nothing.
                harness.verifier.off = off_note("the agent is an MCP client, which the server cannot ask")
            await self.driver.goto_start()
        except asyncio.CancelledError:  # stopped (SIGTERM, Ctrl-C) while starting
            await asyncio.shield(self.close("interrupted", f"stopped while opening {self.task.website}"))
            raise
        except BaseException as e:
            how = raised_ending(e, self.config, clock_spent=False)
            await self.close(
                how.status, f"could not open {self.task.website}: {first_line(e) or type(e).__name__}"
            )
            raise

    async def close(self, status: Status, error: str | None = None, answer: str | None = None) -> None:
        """End the task (unless it has ended already) and write result.json, then clean up."""
        self.driver.end(Ending(status, error, answer))
        await self.driver.close()

    # the tools ----------------------------------------------------------------------------
    async def observe(self) -> Observation:
        async with self._lock:
            await self._ready()
            try:
                return await self.driver.observe()
            except TimeoutError:
                raise ObserveFailed(
                    f"The screenshot did not complete within {self.config.tool_timeout_s:g} s; "
                    "try observe again."
                ) from None
            except Exception as e:
                await self._fail(e)
                raise TaskClosed(self.closed_note()) from None

    async def act(self, call: ToolCall) -> StepResult:
        """One step: the tool call goes through Harness.step by the task driver, which records
        it, applies the task's budgets and ends the task when the harness or a budget stops it."""
        async with self._lock:
            await self._ready()
            if self.driver.out_of_steps():
                await self.driver.close()
                raise TaskClosed(self.closed_note())
            try:
                res = await self.driver.step(ModelReply("", tool_calls=[call]))
            except Exception as e:
                await self._fail(e)
                raise TaskClosed(self.closed_note()) from None
            if res is None:  # the wall clock ran out during the step
                await self.driver.close()
                raise TaskClosed(self.closed_note())
            self.driver.count(Usage())  # one client call; its tokens are not ours to see
            if self.driver.ended:
                await self.driver.close()
            return res

    async def reject(self, reply: str, reason: str) -> StepResult:
        """A call the harness will not execute (unknown tool, bad arguments): recorded as a
        rejected step, as an unreadable reply is in `bench`, and counted against the budget."""
        async with self._lock:
            h = await self._ready()
            if self.driver.out_of_steps():  # an unknown tool is a call like any other
                await self.driver.close()
                raise TaskClosed(self.closed_note())
            feedback = h.notes.refusal(notes.not_executed(reason))
            h.last_feedback = feedback or None
            res = StepResult(None, feedback, error=reason, outcome="rejected")
            self.driver.record(ModelReply(reply), res)
            self.driver.count(Usage())
            return res

    @contextlib.asynccontextmanager
    async def holding(self) -> AsyncIterator[Harness]:
        """The task's harness, for one browser-control call (navigate, tabs) between steps."""
        async with self._lock:
            yield await self._ready()

    # helpers ------------------------------------------------------------------------------
    async def _ready(self) -> Harness:
        if not self.closed and self.harness is not None and self.driver.out_of_time():
            await self.driver.close()
        if self.closed or self.harness is None:
            raise TaskClosed(self.closed_note())
        return self.harness

    async def _fail(self, e: BaseException) -> None:
        """What a tool call raised ends the task under its status (the driver's table)."""
        self.driver.fail(e)
        await self.driver.close()

    def closed_note(self) -> str:
        r = self.result
        how = f"answer {r.answer!r}" if r.status == "finished" else (r.error or r.status)
        return f"The task is over (status {r.status}: {how}); its folder is {self.dir}. " + self.again
