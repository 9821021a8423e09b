"""The agent loop: observe -> model -> parse -> execute -> feedback -> record, inside budgets.

`run_task` runs ONE task and writes its folder; every exit path writes result.json.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from webfovea.browser.binding import bind_session
from webfovea.browser.session import BrowserLost, BrowserSession, is_browser_lost
from webfovea.config import HarnessConfig
from webfovea.execution.response import Response
from webfovea.feedback import notes
from webfovea.guardrails.budgets import TaskBudget
from webfovea.guardrails.verify import VerifyGate
from webfovea.harness import Harness, PageUnresponsive, StepResult
from webfovea.models.base import Model, ModelError, ModelReply
from webfovea.observation import compress
from webfovea.record.atomic import now_iso
from webfovea.record.capture import Capture, start_capture
from webfovea.record.files import config_fields
from webfovea.record.redact import redact_text
from webfovea.record.schema import StepRecord, TaskResult, UsageTotals
from webfovea.record.writer import TaskRecorder
from webfovea.task import Task

MAX_EMPTY_REPLIES = 3  # an empty reply is retried after a back-off; this many in a row is a model error


def step_record(
    i: int, reply: ModelReply, res: StepResult, recorder: TaskRecorder, mode: str | None = None
) -> StepRecord:
    """The trajectory line of one step (also used by the MCP server, so both write the same record)."""
    obs = res.observation
    executed = res.executed
    point = executed.outcome.point if executed else None
    points = executed.outcome.points if executed else []
    marks_css = points or ([point] if point else [])
    sent = marked = None
    if obs is not None:
        marks = [obs.shot.from_css(*p) for p in marks_css]
        attached = executed.outcome.response.attachments if executed else []
        css = next((a.info["region_css"] for a in attached if a.info.get("region_css")), None)
        region = (*obs.shot.from_css(css[0], css[1]), *obs.shot.from_css(css[2], css[3])) if css else None
        sent, marked = recorder.save_screens(i, obs.image, marks, region)
    parsed = res.parsed
    snap = obs.snapshot_info if obs is not None else None
    return StepRecord(
        step=i,
        raw_reply=parsed.raw if parsed and reply.tool_calls else reply.text,
        tool_calls=[{"id": c.id, "name": c.name, "input": c.input} for c in reply.tool_calls] or None,
        provider_notes=list(reply.notes) or None,
        cleaned_reply=parsed.cleaned if parsed else reply.text,
        thought=parsed.thought if parsed else "",
        action=res.action.to_json() if res.action else None,
        rejection=res.error if (executed is None or executed.rejected) and res.error else None,
        executed_point=list(point) if point else None,
        executed_points=[list(p) for p in points] or None,
        feedback=res.feedback or "",
        changed=executed.changed if executed else None,
        outcome=res.outcome,
        fallback_used=executed.fallback_used if executed else None,
        fingerprint_before=executed.fp_before if executed else None,
        fingerprint_after=executed.fp_after if executed else None,
        usage=reply.usage.to_json(),
        screenshot=sent,
        screenshot_marked=marked,
        image_size=list(obs.image.size) if obs else None,
        seconds=round(res.seconds, 4),
        observation=mode,
        snapshot=recorder.save_snapshot(i, snap.full) if snap is not None else None,
        snapshot_info=snap.to_json() if snap is not None else None,
        target=executed.target.to_json() if executed is not None and executed.target is not None else None,
        stale_ref=executed.stale_ref if executed is not None else None,
        verification_requested=res.verification_requested,
        vision=vision_calls(res) or None,
        capture=res.capture,
        **attachment_records(i, res, recorder),
    )


def _response(res: StepResult) -> Response:
    return res.executed.outcome.response if res.executed is not None else Response()


def attachment_records(i: int, res: StepResult, recorder: TaskRecorder) -> dict[str, Any]:
    """The images the step's action attached, saved beside its screenshots (step_NNN_<kind>.png),
    with what the record notes about each: the step record's `attachments`, or the field an
    attachment names (`record_as`: zoom's `zoom`)."""
    fields: dict[str, Any] = {}
    listed: list[dict[str, Any]] = []
    for a in _response(res).attachments:
        entry = {**a.info, "file": recorder.save_image(i, a.kind, a.image)}
        if a.record_as is None:
            listed.append({"kind": a.kind, "label": a.label, **entry})
        elif a.record_as in StepRecord.model_fields:
            fields[a.record_as] = entry
        else:
            raise ValueError(f"attachment {a.kind!r}: the step record has no field {a.record_as!r}")
    return {**fields, "attachments": listed or None}


def vision_calls(res: StepResult) -> list[dict[str, Any]]:
    """The model calls made inside the step's action as recorded (the Usage objects left out)."""
    return [{k: v for k, v in c.items() if k != "call_usage"} for c in _response(res).calls]


def _count_vision(res: StepResult, usage: UsageTotals, vision_usage: UsageTotals) -> None:
    """A separate vision model's calls count apart; the task model's own locate calls count as its."""
    for call in _response(res).calls:
        if call.get("call_usage") is not None:
            (vision_usage if call.get("separate") else usage).add(call["call_usage"])


async def task_harness(
    page: Page, task: Task, config: HarnessConfig, task_dir: Path, cap: Capture | None
) -> tuple[Harness, str | None]:
    """A harness on `page` set up for one task — downloads kept in the task folder, the site
    guard, the verify gate, the proving ground's session cookie — and the bound session id.
    Every driver of a task (this loop, the MCP server) starts from here, so none runs unguarded."""
    h = await Harness.on_page(page, config)
    h.keep_downloads(task_dir / "downloads")
    await h.guard_site(
        task.website, allow_origins=task.allow_origins, on_block=cap.record_block if cap is not None else None
    )
    h.verify = VerifyGate.for_task(config, task)
    return h, await bind_session(page, task)


async def run_task(
    task: Task,
    task_dir: Path,
    *,
    model: str | Model,
    config: HarnessConfig,
    session: BrowserSession | None = None,
    cdp_url: str | None = None,
    model_options: dict[str, Any] | None = None,
    capture: bool = True,
    on_step: Callable[[StepRecord], None] | None = None,
    base_url: str | None = None,
    offline: bool | None = None,
) -> TaskResult:
    """Run one task and write its folder. `offline` applies when the browser is launched here
    (default: $WEBFOVEA_OFFLINE; real websites are reachable unless it is set)."""
    t0 = time.monotonic()
    model_options = dict(model_options or {})
    base_url = base_url or model_options.pop("base_url", None)  # runners pass it with the options
    recorder = TaskRecorder(Path(task_dir))
    usage = UsageTotals()
    vision_usage = UsageTotals()
    result = TaskResult(
        task_id=task.task_id,
        status="error",
        task=task.task,
        website=task.website,
        model=model if isinstance(model, str) else type(model).__name__,
        started_at=now_iso(),
        **config_fields(config),  # the whole config, and the components off derived from it
    )
    own: BrowserSession | None = None
    deadline: asyncio.Timeout | None = None
    h: Harness | None = None
    cap = None
    mdl: Model | None = None
    vision_mdl: Model | None = None
    steps = empty = 0
    try:
        if session is None:
            vp = (config.viewport_width, config.viewport_height)
            own = await (
                BrowserSession.connect(cdp_url, viewport=vp)
                if cdp_url
                else BrowserSession.launch(viewport=vp, offline=offline)
            )
        sess = session or own
        assert sess is not None
        page = await sess.fresh_page()
        if capture:
            cap = await start_capture(page, Path(task_dir))
        h, result.session_id = await task_harness(page, task, config, Path(task_dir), cap)
        budget = TaskBudget.of(config)
        budget.started = t0
        deadline = asyncio.timeout(budget.seconds_left())
        async with deadline:  # the first navigation counts against the task's time too
            await h.goto(task.website)
            if isinstance(model, str):
                from webfovea.models.factory import make_model

                mdl = make_model(
                    model,
                    task=task,
                    page=page,
                    base_url=base_url,
                    options=model_options or None,
                    sampling=config.sampling(),
                )
            else:
                mdl = model
            if config.vision_model:  # look/locate go to a second real client
                from webfovea.models.factory import make_model

                vision_mdl = make_model(
                    config.vision_model,
                    task=task,
                    page=page,
                    base_url=config.vision_base_url,
                    sampling=config.sampling(),  # seed 002: one setting for both models
                )
                h.use_vision(vision_mdl, label=config.vision_model, separate=True)
            else:
                h.use_vision(mdl)
            while True:
                if budget.steps_spent():
                    result.status = "max_steps"
                    result.error = f"step budget of {config.max_steps} spent without an answer"
                    break
                await asyncio.wait_for(h.observe(), config.tool_timeout_s)
                inp = h.model_input(task.task)
                compression = None
                if compress.is_due(inp, config):
                    compression = await compress.compress(h.history, inp, mdl, config)
                    if compression.call_usage is not None:
                        usage.add(compression.call_usage)
                    inp = h.model_input(task.task)
                reply = await mdl.next_reply(inp)
                usage.add(reply.usage)
                if not (reply.text or "").strip():  # `content: null`: the model said nothing
                    empty += 1
                    if empty >= MAX_EMPTY_REPLIES:
                        raise ModelError(f"the model returned an empty reply {empty} times in a row")
                    await asyncio.sleep(min(2.0**empty, 10.0))
                    continue
                empty = 0
                try:
                    res = await asyncio.wait_for(h.step(reply.text, reply.tool_calls), config.tool_timeout_s)
                    budget.tool_completed()
                except TimeoutError:
                    text = notes.tool_timeout(config.tool_timeout_s)
                    h.last_feedback = h.notes.refusal(text) or None
                    res = StepResult(None, h.notes.refusal(text), error=text)
                    if budget.tool_timed_out():
                        recorder.append(step_record(steps, reply, res, recorder, config.observation))
                        steps += 1
                        result.status = "tool_timeout"
                        result.error = f"{budget.timeouts_in_a_row} consecutive tool timeouts"
                        break
                _count_vision(res, usage, vision_usage)
                rec = step_record(steps, reply, res, recorder, config.observation)
                rec.compression = compression.to_json() if compression is not None else None
                recorder.append(rec)
                steps += 1
                budget.steps = steps
                if on_step is not None:
                    on_step(rec)
                if res.done:
                    if res.stop_reason == "finished":
                        result.status, result.answer = "finished", res.answer or ""
                    elif res.stop_reason == "stale_refs":
                        result.status, result.error = "stale_refs", res.error
                    else:
                        result.status, result.error = res.stop_reason or "error", res.error  # a breaker
                    break
    except TimeoutError:
        if deadline is not None and deadline.expired():
            result.status = "timeout"
            result.error = f"wall-clock budget of {config.max_seconds:g} s spent"
        else:  # a bounded wait inside the task, not the task's own budget
            result.status, result.error = (
                "tool_timeout",
                f"a step did not complete within {config.tool_timeout_s:g} s",
            )
    except ModelError as e:
        result.status, result.error = "model_error", str(e)
    except PageUnresponsive as e:
        result.status, result.error = "page_unresponsive", str(e)
    except BrowserLost as e:
        result.status, result.error = "browser_error", f"browser lost: {e}"
    except asyncio.CancelledError:
        result.status, result.error = "interrupted", "the run was interrupted"
        raise
    except KeyboardInterrupt:
        result.status, result.error = "interrupted", "the run was interrupted (Ctrl-C)"
        raise
    except Exception as e:  # noqa: BLE001 - every exit path must write result.json
        if is_browser_lost(e):
            result.status, result.error = "browser_error", f"browser lost: {str(e).splitlines()[0]}"
        else:
            result.status, result.error = (
                "error",
                f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
            )
    finally:
        result.steps = steps
        result.usage = usage
        result.vision_usage = vision_usage if config.vision_model else None
        result.model_quirks = _quirk_log(mdl)
        result.seconds = round(time.monotonic() - t0, 3)
        result.ended_at = now_iso()
        result.error = redact_text(result.error)  # never echo credentials, here or on the console
        recorder.write_result(result)
        await _quietly(h.release() if h is not None else None)
        await _quietly(cap.finish() if cap is not None else None)
        await _quietly(mdl.aclose() if mdl is not None and isinstance(model, str) else None)
        await _quietly(vision_mdl.aclose() if vision_mdl is not None else None)
        await _quietly(own.close() if own is not None else None)
    return result


def _quirk_log(mdl: Any) -> list[dict[str, Any]] | None:
    """The quirks an instrumented model says it played (the oracle's `quirk_log`), if any."""
    try:
        log = getattr(mdl, "quirk_log", None)
        return [dict(e) for e in log] if log else None
    except Exception:  # noqa: BLE001 - a record of quirks must never fail a task
        return None


async def _quietly(coro: Any) -> None:
    if coro is None:
        return
    try:
        await asyncio.wait_for(coro, 10)
    except BaseException:  # noqa: BLE001 - cleanup must not mask the task's own outcome
        pass
