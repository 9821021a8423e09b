"""One task driven to its end: browser, harness, budgets, step accounting, records, clean-up.

Whoever decides the steps — the agent loop with a model (`webfovea.agent.run_task`), an MCP
client (`webfovea.mcp.task_session`) — hands each step to a `TaskDriver`. The driver bounds
it by the tool timeout and the wall clock, writes its trajectory line, counts it against the
step budget, and ends the task when the harness stops it, a budget is spent, or something is
raised (`endings.py`: one table from a stop reason to a status). `close()` writes result.json
and releases everything, once, whichever way the task ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from webfovea.browser.session import BrowserLogin, BrowserSession
from webfovea.config import HarnessConfig
from webfovea.driving.endings import Ending, ending, first_line, raised_ending, step_ending
from webfovea.driving.environment import TaskEnvironment, environment_state, make_environment
from webfovea.driving.records import step_record
from webfovea.driving.start import task_harness
from webfovea.feedback import notes
from webfovea.guardrails.budgets import TaskBudget
from webfovea.guardrails.spend import Spend, SpendCap
from webfovea.harness import Harness, Observation, StepResult
from webfovea.models.base import Model, ModelReply, Usage, quirks_of
from webfovea.models.routes import recorded
from webfovea.record.atomic import now_iso
from webfovea.record.capture import Capture, start_capture
from webfovea.record.files import config_fields
from webfovea.record.redact import redact_text, redact_url
from webfovea.record.schema import EVIDENCE_PNG, StepRecord, TaskResult, UsageTotals
from webfovea.record.writer import TaskRecorder
from webfovea.skills.checklists import instruction_for
from webfovea.skills.site_notes import notes_for, site_key, with_notes
from webfovea.task import Task

CLOSE_WAIT_S = 10  # each clean-up step gets this long; it must not hold the task's result back


@dataclass(frozen=True)
class BrowserSource:
    """Where the task's browser comes from: a session the caller keeps (a fresh tab in it, left
    open), a running Chromium over CDP, or a new local one (closed with the task)."""

    cdp_url: str | None = None
    headless: bool = True
    offline: bool | None = None  # a new local browser: default $WEBFOVEA_OFFLINE
    session: BrowserSession | None = None


@dataclass(frozen=True)
class DriverSettings:
    config: HarnessConfig
    model_label: str  # result.json `model`
    browser: BrowserSource = field(default_factory=BrowserSource)
    capture: bool = True  # passive request capture (capture.json)
    on_step: Callable[[StepRecord], None] | None = None  # told of every step written
    # Record a tool call as the text-grammar line it stands for (raw_reply): an MCP client
    # wrote no reply text of its own, and its folder reads like a text-grammar run's.
    calls_as_text: bool = False
    # The workflow cache's folder (webfovea/cache/): steps replayed while the page matches.
    cache_dir: Path | None = None


class TaskDriver:
    def __init__(self, task: Task, task_dir: Path, settings: DriverSettings) -> None:
        self.task = task
        self.dir = Path(task_dir)
        self.settings = settings
        self.config = settings.config
        self.recorder = TaskRecorder(self.dir)
        self.result = TaskResult(
            task_id=task.task_id,
            status="error",
            task=task.task,
            website=task.website,
            model=settings.model_label,
            started_at=now_iso(),
            **config_fields(self.config),  # the whole config, and the components off derived from it
        )
        self.budget = TaskBudget.of(self.config)
        self.spend_cap = SpendCap.of(self.config)
        self._t0 = self.budget.started
        self.usage = UsageTotals()
        self.vision_usage = UsageTotals()
        self.verifier_usage = UsageTotals()  # the verifier's calls, always apart (guardrails/verifier.py)
        self.summary_usage = UsageTotals()  # a separate summary model's calls (the summarise route)
        self.summariser: Model | None = None  # that model, when the summarise role has its own
        self.steps = 0
        self.harness: Harness | None = None
        self.page: Page | None = None
        self.model: Model | None = None  # the task's model: its quirks go into result.json
        self.ending: Ending | None = None
        self.closed = False
        self._session: BrowserSession | None = None  # opened here, closed here
        self._capture: Capture | None = None
        self._owned: list[Model] = []  # models made for this task, closed with it
        self._deadline: asyncio.Timeout | None = None
        self.write_error: str | None = None  # why result.json could not be written, if it could not
        self.env: TaskEnvironment | None = None  # the task's environment, when it names one
        self._env_checked = False  # checked since the last step
        self._instruction: str | None = None  # what the model reads as the task (instruction())

    # start --------------------------------------------------------------------------------
    async def open(self) -> Harness:
        """The browser, a fresh tab, capture and the task's harness (not yet on the start page)."""
        src, cfg = self.settings.browser, self.config
        sess = src.session
        if sess is None:
            vp = (cfg.viewport_width, cfg.viewport_height)
            self._session = sess = await (
                BrowserSession.connect(src.cdp_url, viewport=vp)
                if src.cdp_url
                else BrowserSession.launch(
                    viewport=vp,
                    headless=src.headless,
                    offline=src.offline,
                    login=BrowserLogin(cfg.storage_state, cfg.user_data_dir),
                )
            )
        if self.task.environment is not None:  # before the browser: an unknown kind fails at once
            self.env = make_environment(self.task.environment)
        if self.task.session is not None and src.session is not None:
            # A task bound to a server-side session starts in a browser context of its own: no
            # cookie, storage or cache of the worker's earlier tasks (seed 003 §3, fresh state).
            await sess.fresh_context()
        self.page = page = await sess.fresh_page()  # the tab the task started in
        if self.settings.capture:
            self._capture = await start_capture(page, self.dir)
        self.harness, self.result.session_id = await task_harness(
            page, self.task, cfg, self.dir, self._capture
        )
        if self.harness.verifier.active and cfg.verifier_model:  # a separate verifier model
            from webfovea.models.factory import make_model  # its clients load only when a task runs

            verifier = make_model(
                cfg.verifier_model,
                task=self.task,
                page=page,
                base_url=cfg.verifier_base_url,
                sampling=cfg.sampling(),
            )
            self.own(verifier)
            self.harness.verifier.use(verifier, label=cfg.verifier_model, separate=True)
        return self.harness

    async def goto_start(self) -> None:
        """The start page — or, for a task with an environment, the page as it sets it up (it may
        state the goal, which becomes the task's instruction)."""
        if self.env is None:
            await self._ready().goto(self.task.website)
            return
        assert self.page is not None
        goal = await self.env.setup(self.page)
        if goal:
            self.task = self.task.model_copy(update={"task": goal})
            self.result.task = goal
            self._instruction = None

    def instruction(self) -> str:
        """The task as the model reads it: its instruction, its checklist and its site's notes when on."""
        if self._instruction is None:
            cfg = self.config
            text, self.result.checklist = instruction_for(
                self.task.instruction(), self.task.category, cfg.checklists, cfg.checklist_dir
            )
            notes = notes_for(self.task.website, cfg.site_notes_dir) if cfg.site_notes_dir else None
            if notes:
                text, self.result.site_notes = with_notes(text, notes), site_key(self.task.website)
            self._instruction = text
        return self._instruction

    async def check_environment(self) -> None:
        """Ask the environment after a step: its score goes into result.json, its done ends the task."""
        if self.env is None or self.page is None:
            return
        check = await self.env.check(self.page)
        self._env_checked = True
        self.result.state = environment_state(check)
        if check.done:
            self.end(ending("env_done", answer=None))

    def use_model(self, model: Model, *, own: bool) -> None:
        """The task's model; `own`: made for this task, so closed with it."""
        self.model = model
        if own:
            self._owned.append(model)

    def own(self, model: Model) -> None:
        """Another model made for this task (a separate vision model): closed with it."""
        self._owned.append(model)

    # budgets ------------------------------------------------------------------------------
    def wall_clock(self) -> asyncio.Timeout:
        """The task's wall-clock budget over everything inside the block (model calls too)."""
        self._deadline = asyncio.timeout(self.budget.seconds_left())
        return self._deadline

    def clock_spent(self) -> bool:
        expired = self._deadline is not None and self._deadline.expired()
        return expired or self.budget.seconds_left() <= 0.001

    def out_of_time(self) -> bool:
        """True (and the task ended) when the wall-clock budget is spent."""
        if self.clock_spent():
            self.end(ending("timeout", f"wall-clock budget of {self.config.max_seconds:g} s spent"))
        return self.ending is not None

    def out_of_steps(self) -> bool:
        """True (and the task ended) when the step budget is spent."""
        if self.budget.steps_spent():
            self.end(ending("max_steps", f"step budget of {self.config.max_steps} spent without an answer"))
        return self.ending is not None

    def at_spend_cap(self) -> bool:
        """True (and the task ended) when the tokens or money recorded so far reach the task's
        cap (guardrails/spend.py): checked before a model call, so the next call is not made."""
        if self.spend_cap.active and (why := self.spend_cap.reached(self.spent())) is not None:
            self.end(ending("budget", why))
        return self.ending is not None

    def spent(self) -> Spend:
        """The task's spend so far: the usage totals result.json records, every role."""
        roles = (self.usage, self.vision_usage, self.verifier_usage, self.summary_usage)
        return self.spend_cap.spent(roles)

    def count(self, usage: Usage) -> None:
        """One call of the task's model (its tokens, when the caller sees them)."""
        self.usage.add(usage)

    # steps --------------------------------------------------------------------------------
    async def observe(self) -> Observation:
        """The harness's observation, bounded by the tool timeout (TimeoutError past it)."""
        return await asyncio.wait_for(self._ready().observe(), self.config.tool_timeout_s)

    async def step(
        self,
        reply: ModelReply,
        compression: dict[str, Any] | None = None,
        withheld: str | None = None,
        cached: dict[str, Any] | None = None,
        route: dict[str, Any] | None = None,
    ) -> StepResult | None:
        """One step through `Harness.step` (reply text or tool calls), bounded by the tool timeout
        and the wall clock, then recorded; the task ends when the harness stops it, or after
        too many tool timeouts in a row. None: the wall clock ran out first (nothing recorded).
        `withheld`: record the reply but do not execute it, for this reason. `cached`: the reply
        came from the workflow cache, not a model (the step record's `cached`). `route`: the step
        router's decision for this step (the step record's `route`)."""
        h = self._ready()
        try:
            left = min(self.config.tool_timeout_s, self.budget.seconds_left())
            h.in_flight = None
            res = await asyncio.wait_for(h.step(reply.text, reply.tool_calls or None, withheld), left)
            self.budget.tool_completed()
        except TimeoutError:
            if self.out_of_time():
                return None
            res = self._timed_out(h)
            if self.budget.tool_timed_out():
                self.record(reply, res, route=route)
                self.end(ending("tool_timeout", f"{self.budget.timeouts_in_a_row} consecutive tool timeouts"))
                return res
        except BaseException as e:
            # The action may have run (a click that froze the renderer, opened 200 windows,
            # started an alert storm): it is recorded before the task ends for what was raised.
            self._record_raised(reply, h, e)
            raise
        self._count_vision(res)
        if res.verifier is not None and res.verifier.get("call_usage") is not None:
            self.verifier_usage.add(res.verifier["call_usage"])
        self.record(reply, res, compression, cached, route)
        self._env_checked = False
        if res.done:
            self._keep_evidence(res)
            self.end(step_ending(res))
        elif self.env is not None:
            await self.check_environment()
        return res

    def record(
        self,
        reply: ModelReply,
        res: StepResult,
        compression: dict[str, Any] | None = None,
        cached: dict[str, Any] | None = None,
        route: dict[str, Any] | None = None,
    ) -> StepRecord:
        """Write the step's trajectory line and count it against the step budget."""
        if self.settings.calls_as_text and res.parsed is not None and reply.tool_calls:
            reply = ModelReply(res.parsed.cleaned, reply.usage, notes=reply.notes)
        rec = step_record(self.steps, reply, res, self.recorder, self.config.observation)
        rec.compression = compression
        rec.cached = cached
        rec.route = route
        self.recorder.append(rec)
        self.steps += 1
        self.budget.steps = self.steps
        if self.settings.on_step is not None:
            self.settings.on_step(rec)
        return rec

    def _record_raised(self, reply: ModelReply, h: Harness, e: BaseException) -> None:
        parsed, obs = h.in_flight if h.in_flight is not None else (None, None)
        h.in_flight = None
        text = f"the step did not complete: {type(e).__name__}: {first_line(e)}".rstrip(": ")
        res = StepResult(
            parsed.action if parsed is not None else None,
            text,
            error=text,
            parsed=parsed,
            observation=obs,
            outcome="failed" if parsed is not None and parsed.action is not None else "rejected",
        )
        try:
            self.record(reply, res)
        except Exception:  # noqa: BLE001 - the task's own ending is what was raised, not this
            pass

    def _keep_evidence(self, res: StepResult) -> None:
        """The accepted answer's evidence: evidence.png and result.json `evidence`."""
        ev = res.evidence
        if ev is None:
            return
        try:
            ev.image.save(self.dir / EVIDENCE_PNG, optimize=False, compress_level=1)
            ev.screenshot = EVIDENCE_PNG
        except OSError:
            ev.screenshot = None
        self.result.evidence = ev.to_json()

    def _timed_out(self, h: Harness) -> StepResult:
        text = notes.tool_timeout(self.config.tool_timeout_s)
        h.last_feedback = h.notes.refusal(text) or None
        return StepResult(None, h.notes.refusal(text), error=text)

    def _count_vision(self, res: StepResult) -> None:
        """A separate vision model's calls count apart; the task model's own locate calls count as its."""
        for call in res.executed.outcome.response.calls if res.executed is not None else []:
            if call.get("call_usage") is not None:
                (self.vision_usage if call.get("separate") else self.usage).add(call["call_usage"])

    def _ready(self) -> Harness:
        if self.harness is None:
            raise RuntimeError("open the task driver before driving it")
        return self.harness

    # endings ------------------------------------------------------------------------------
    @property
    def ended(self) -> bool:
        return self.ending is not None

    def end(self, how: Ending) -> None:
        """End the task (the first ending stands: the rest is how the clean-up went)."""
        if self.ending is None:
            self.ending = how

    def fail(self, e: BaseException) -> None:
        """End the task for what was raised (endings.raised_ending)."""
        self.end(raised_ending(e, self.config, clock_spent=self.clock_spent()))

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[TaskDriver]:
        """Drive the task inside the block: whatever is raised ends it under its status, and
        result.json is written on the way out. A cancel or Ctrl-C still propagates."""
        try:
            yield self
        except (asyncio.CancelledError, KeyboardInterrupt) as e:
            self.fail(e)
            raise
        except Exception as e:  # noqa: BLE001 - every exit path must write result.json
            self.fail(e)
        finally:
            await self.close()

    async def close(self) -> TaskResult:
        """result.json first (a client may kill the process soon), then the harness, capture,
        the models made here and the browser opened here. Only the first call does anything."""
        if self.closed:
            return self.result
        self.closed = True
        if self.env is not None and not self._env_checked:  # the last word is the environment's
            await _quietly(self.check_environment())
        try:
            self._write_result()
        except OSError as e:  # a full disk: the browser and models are still released
            self.write_error = f"result.json could not be written: {e.strerror or e}"
        for closer in (
            self.harness.release() if self.harness is not None else None,
            self._capture.finish() if self._capture is not None else None,
            *(m.aclose() for m in self._owned),
            self.env.aclose() if self.env is not None else None,
            self._session.close() if self._session is not None else None,
        ):
            await _quietly(closer)
        self._capture = self._session = None
        return self.result

    def _write_result(self) -> None:
        r, how = self.result, self.ending or Ending("error")
        r.status, r.answer = how.status, how.answer
        r.answer_value = how.answer_value
        r.answer_errors = self.harness.answers.invalid if self.harness is not None else 0
        r.downloads = _downloads(self.harness, self.dir)
        r.error = redact_text(how.error)  # never echo credentials, in the folder or to a client
        r.steps = self.steps
        r.usage = self.usage
        r.vision_usage = self.vision_usage if self.config.vision_model else None
        verification = self.harness.verifier.to_json() if self.harness is not None else None
        r.verification = verification
        r.verifier_usage = self.verifier_usage if verification is not None else None
        r.holds = list(self.harness.evidence.holds) or None if self.harness is not None else None
        r.summary_usage = self.summary_usage if self.summariser is not None else None
        r.verifier_off = self.harness.verifier.off if self.harness is not None else None
        r.routes = recorded(self.settings.model_label, self.config, verifier_off=r.verifier_off is not None)
        r.model_quirks = _quirks(self.model)
        r.seconds = round(time.monotonic() - self._t0, 3)
        r.ended_at = now_iso()
        self.recorder.write_result(r)


def _downloads(h: Harness | None, task_dir: Path) -> list[dict[str, Any]] | None:
    """The downloads kept, as result.json lists them: each path relative to the task folder."""
    out = []
    for d in h.watch.saved if h is not None else []:
        path, base = Path(d["path"]).resolve(), task_dir.resolve()
        shown = path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)
        out.append({"path": shown, "bytes": d["bytes"], "url": redact_url(d["url"])})
    return out or None


def _quirks(model: Model | None) -> list[dict[str, Any]] | None:
    try:
        return quirks_of(model) or None
    except Exception:  # noqa: BLE001 - a record of quirks must never fail a task
        return None


async def _quietly(coro: Awaitable[object] | None) -> None:
    if coro is None:
        return
    try:
        await asyncio.wait_for(coro, CLOSE_WAIT_S)
    except BaseException:  # noqa: BLE001 - clean-up must not mask the task's own outcome
        pass
