"""One task in the report: its steps with their screenshots, the model's words, the action and
its feedback, and the judges' verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.eval import html
from webfovea.eval.report.evidence import ImageSource, evidence_html
from webfovea.eval.report.images import THUMB_WIDTH, Thumb, thumbnail
from webfovea.eval.report.tables import badge, failure_text, value_html
from webfovea.record import (
    StepRecord,
    check_result,
    read_trajectory,
)
from webfovea.record.confined import confined, read_text
from webfovea.record.redact import redact_text
from webfovea.record.schema import TRAJECTORY_JSONL

_e = html.text


def read_steps(task_dir: Path) -> list[StepRecord]:
    """The task's step records. Lenient: a report of a damaged run shows every readable step.
    Only a regular file inside the task folder is read (not a FIFO, not a link out)."""
    try:
        confined(task_dir, TRAJECTORY_JSONL)
        return read_trajectory(task_dir, strict=False)
    except (OSError, ValueError):  # absent, refused, or the file itself cannot be read
        return []


def _action_text(action: dict[str, Any] | None) -> str:
    if not action:
        return ""
    args = ", ".join(
        f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in (action.get("args") or {}).items()
    )
    return f"{action.get('name', '?')}({args})"


def _point_text(step: StepRecord) -> str:
    if step.executed_points:
        return "; ".join(f"({p[0]:.0f}, {p[1]:.0f})" for p in step.executed_points if len(p) >= 2)
    if step.executed_point and len(step.executed_point) >= 2:
        return f"({step.executed_point[0]:.0f}, {step.executed_point[1]:.0f}) CSS px"
    return ""


def _image_html(step: StepRecord, image: Path | str | None, thumbs: dict[Path, Thumb]) -> str:
    if image is None:
        return '<div class="noimg">no screenshot recorded</div>'
    if isinstance(image, str):  # the file named is not one the report may read
        return f'<div class="noimg">no screenshot recorded in the task folder ({_e(image)})</div>'
    uri, why = thumbs.get(image, (None, "not read"))
    if uri:
        return f'<img src="{uri}" alt="step {step.step} screenshot" loading="lazy">'
    return f'<div class="noimg">screenshot not shown: {_e(why)}</div>'


def _step_html(step: StepRecord, image: Path | str | None, anchor: str, thumbs: dict[Path, Thumb]) -> str:
    image_html = _image_html(step, image, thumbs)
    parts = [f"<h3>Step {step.step}</h3>"]
    if step.thought:
        parts.append(f'<div class="label">thought</div><div class="thought">{_e(step.thought)}</div>')
    if step.action:
        parts.append(
            f'<div class="label">action</div><pre class="action">{_e(_action_text(step.action))}</pre>'
        )
    if step.rejection:
        parts.append(f'<div class="label">rejected</div><div class="reject">{_e(step.rejection)}</div>')
    point = _point_text(step)
    if point:
        parts.append(f'<div class="label">executed at</div><div class="point">{_e(point)}</div>')
    if step.verification_requested:
        parts.append(
            '<div class="label">verify</div><div class="verify">finished held: the real state was '
            "loaded again and the model asked to compare</div>"
        )
    if step.feedback:
        parts.append(f'<div class="label">feedback</div><div class="feedback">{_e(step.feedback)}</div>')
    extra = []
    if step.image_size:
        extra.append(f"image sent {step.image_size[0]}×{step.image_size[1]}")
    if step.changed is not None:
        extra.append("page changed" if step.changed else "no page change")
    extra.append(f"{step.seconds:.1f} s")
    parts.append(f'<div class="kv">{_e(" · ".join(extra))}</div>')
    parts.append(
        f'<details><summary>raw reply</summary><pre class="raw">{_e(step.raw_reply)}</pre></details>'
    )
    return (
        f'<li class="step" id="{anchor}-step-{step.step}"><div>{image_html}</div>'
        f"<div>{''.join(parts)}</div></li>"
    )


def _judged_html(task_dir: Path, tid: str, truth: dict[str, Any] | None) -> list[str]:
    """The judge's verdict and reasons (RUN_DIR/judge/<task_id>.json, docs/judge.md) and the
    server-side truth, when the run has them. Read as plain JSON: the judge sits above eval."""
    out = []
    try:
        rec = json.loads(read_text(task_dir.parent / "judge", f"{tid}.json"))
    except (OSError, ValueError):  # none, refused (record/confined.py) or damaged
        rec = None
    if isinstance(rec, dict):
        verdict = rec.get("verdict")
        word = "pass" if verdict else "fail" if verdict is False else "no verdict"
        why = rec.get("reasoning") or rec.get("error") or ""
        failed = [d for d in rec.get("details") or [] if isinstance(d, dict) and not d.get("passed")]
        reasons = "".join(f"<li>{_e(d.get('action'))}: {_e(d.get('reason'))}</li>" for d in failed)
        out.append(
            f'<div class="kv judge" data-verdict="{_e(word)}"><b>judge</b> {_e(word)} '
            f"({_e(rec.get('method'))}, {_e(rec.get('judge_model'))}, protocol {_e(rec.get('protocol'))}) "
            f"— {_e(why)}" + (f"<ul>{reasons}</ul>" if reasons else "") + "</div>"
        )
    if isinstance(truth, dict) and truth.get("valid"):
        out.append(
            f'<div class="kv truth"><b>truth</b> navigation {"right" if truth.get("nav_ok") else "wrong"} · '
            f"answer {'right' if truth.get('answer_ok') else 'wrong'} (from the sites' request log)</div>"
        )
    return out


def task_section(
    tid: str,
    row: dict[str, Any],
    task_dir: Path,
    anchor: str,
    steps: list[tuple[StepRecord, Path | str | None]],
    thumbs: dict[Path, Thumb],
    src: ImageSource = thumbnail,
) -> str:
    """One task's section; `thumbs` holds each step image's source, `src` makes the evidence's."""
    result, _ = check_result(task_dir)
    head = (
        f'<div class="task-head">{badge(row.get("passed"), row.get("how"))}'
        f'<h2>{_e(tid)}</h2><a href="#task-table">↑ all tasks</a></div>'
    )
    kv = [
        f'<div class="kv"><b>task</b> {_e(row.get("task") or (result.task if result else ""))}</div>',
        f'<div class="kv"><b>start</b> {_e(result.website if result else "")}</div>',
        f'<div class="kv"><b>answer</b> <code class="answer">{value_html(row.get("answer"), answer=True)}</code> · '
        f"<b>expected</b> <code>{value_html(row.get('expected'))}</code> · <b>match</b> {_e(row.get('how'))}"
        + (f" ({_e(row['detail'])})" if row.get("detail") else "")
        + "</div>",
        f'<div class="kv"><b>status</b> {_e(row.get("status"))} · <b>steps</b> {_e(row.get("steps"))} · '
        f"<b>seconds</b> {float(row.get('seconds') or 0):.1f}</div>",
    ]
    if row.get("failure_classes") or row.get("category"):
        kv.append(
            f'<div class="kv"><b>category</b> {_e(row.get("category") or "—")} · <b>classes</b> '
            f"{_e(', '.join(row.get('failure_classes') or []))}</div>"
        )
    if failure_text(row):
        kv.append(f'<div class="kv failure"><b>failure</b> {_e(failure_text(row))}</div>')
    if row.get("error"):
        kv.append(f'<div class="kv error"><b>error</b> {_e(redact_text(row["error"]))}</div>')
    kv += _judged_html(task_dir, tid, result.truth if result else None)
    kv.append(evidence_html(result, task_dir, task_dir.parent, THUMB_WIDTH, src))
    timeline = "".join(_step_html(s, image, anchor, thumbs) for s, image in steps)
    if not timeline:
        timeline = '<li class="noimg">no steps recorded</li>'
    return (
        f'<section class="task" id="{anchor}" data-task-id="{_e(tid)}">{head}{"".join(kv)}'
        f'<ol class="timeline">{timeline}</ol></section>'
    )
