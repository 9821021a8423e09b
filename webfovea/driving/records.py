"""The trajectory line of one step, written the same by every driver of a task."""

from __future__ import annotations

from typing import Any

from webfovea.harness import StepResult
from webfovea.models.base import ModelReply
from webfovea.record.schema import StepRecord
from webfovea.record.writer import TaskRecorder


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
        attached = executed.outcome.attachment if executed else None
        css = attached.info.get("region_css") if attached is not None else None
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
        zoom=zoom_record(i, res, recorder),
        capture=res.capture,
    )


def zoom_record(i: int, res: StepResult, recorder: TaskRecorder) -> dict[str, Any] | None:
    """A zoom's crop saved beside the step's screenshots, and what the record notes about it."""
    attached = res.executed.outcome.attachment if res.executed is not None else None
    if attached is None:
        return None
    return {**attached.info, "file": recorder.save_zoom(i, attached.image)}


def vision_calls(res: StepResult) -> list[dict[str, Any]]:
    """The look/locate model calls of one step as recorded (the Usage objects left out)."""
    calls = res.executed.outcome.vision_calls if res.executed is not None else []
    return [{k: v for k, v in c.items() if k != "call_usage"} for c in calls]
