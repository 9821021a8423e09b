"""The trajectory line of one step, written the same by every driver of a task."""

from __future__ import annotations

from typing import Any

from webfovea.execution.response import Response
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
        attached = executed.outcome.response.attachments if executed else []
        css = next((a.info["region_css"] for a in attached if a.info.get("region_css")), None)
        region = (*obs.shot.from_css(css[0], css[1]), *obs.shot.from_css(css[2], css[3])) if css else None
        png = obs.shot.png if obs.image is obs.shot.image else None  # not the grid's copy
        sent, marked = recorder.save_screens(i, obs.image, marks, region, png)
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
        verifier={k: v for k, v in res.verifier.items() if k != "call_usage"} if res.verifier else None,
        verifier_rejected=res.verifier_rejected,
        ocr_held=res.ocr_held,
        hold_why=res.hold_why,
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
