"""The HTML report of a run: one self-contained file a person can open, mail or archive.

Everything is inline (CSS, and screenshots as JPEG data URIs about 720 px wide), so the file
needs no network and no run folder beside it. All page and model text is escaped: replies can
hold chat-template tokens and markup, and a report must never run what a page or model wrote
(`eval/html.py`). Screenshots: `eval/report/images.py` (bounded, read inside the run only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.eval import html
from webfovea.eval.ab import AB_JSON, read_ab_file
from webfovea.eval.report.ab import render_ab_error, render_ab_report
from webfovea.eval.report.evidence import evidence_html
from webfovea.eval.report.images import THUMB_WIDTH, Thumb, step_image, thumbnails
from webfovea.eval.report.single import gather_task_folder, is_task_folder
from webfovea.eval.report.style import CSS
from webfovea.eval.summary import build_summary, load_summary
from webfovea.eval.taxonomy import GROUPS
from webfovea.plugins import plugin_manager
from webfovea.record import (
    RecordError,
    StepRecord,
    check_result,
    read_run_info,
    read_run_tasks,
    read_trajectory,
    write_text_atomic,
)
from webfovea.record.confined import confined, read_text
from webfovea.record.redact import redact_text
from webfovea.record.schema import RESULT_JSON, TRAJECTORY_JSONL
from webfovea.task import Task

_e = html.text


# ---------------------------------------------------------------- gathering the run


def _plugin_sections(summary: dict[str, Any]) -> list[str]:
    """Each plug-in's own section (`webfovea_report_section`: BreakingWeb's paired drops)."""
    sections = plugin_manager().hook.webfovea_report_section(summary=summary, escape=_e)
    return [html for html in sections if html]


def _short(e: BaseException) -> str:
    return " ".join(str(e).split())[:160]


def _task_dirs(run_dir: Path) -> list[Path]:
    return sorted(
        d
        for d in run_dir.iterdir()
        if d.is_dir() and ((d / RESULT_JSON).is_file() or (d / TRAJECTORY_JSONL).is_file())
    )


def gather(run_dir: Path) -> tuple[dict[str, Any], str | None]:
    """The summary to show and, when the run is not known to be complete, why.

    Prefers summary.json; else summary.partial.json; else scores the task folders directly
    (against tasks.json when the runner wrote it; without it expected answers are unknown).
    """
    damaged = ""  # a report of a damaged run is still worth having: say what was skipped
    try:
        loaded = load_summary(run_dir)
    except (OSError, ValueError) as e:
        loaded, damaged = None, f"the summary file is unreadable ({_short(e)}); "
    if loaded is not None:
        summary, partial = loaded
        if not partial:
            return summary, None
        return summary, summary.get("note") or f"PARTIAL RUN: {summary.get('missing', '?')} tasks missing"
    try:
        tasks = read_run_tasks(run_dir)
    except (OSError, ValueError) as e:
        tasks, damaged = None, damaged + f"tasks.json is unreadable ({_short(e)}); "
    if tasks is not None:
        summary = build_summary(run_dir, tasks, complete=False, meta={})
        return summary, (
            f"NO SUMMARY: {damaged}this run has not finished (or was interrupted); {summary['missing']} of "
            f"{summary['tasks']} tasks have no result yet and count as failed"
        )
    synthetic = []
    for d in _task_dirs(run_dir):
        result, _ = check_result(d)
        synthetic.append(
            Task(
                task_id=d.name,
                task=(result.task if result else None) or "",
                website=(result.website if result else None) or "",
            )
        )
    summary = build_summary(run_dir, synthetic, complete=False, meta={})
    for row in summary["per_task"].values():
        row.update(expected="(unknown)", passed=False, how="unscored", score=0.0)
    summary["passed"], summary["success_rate"] = 0, 0.0
    return summary, (
        f"NO SUMMARY AND NO tasks.json: {damaged}answers are shown but not scored, and tasks that never "
        "started are not listed"
    )


def read_steps(task_dir: Path) -> list[StepRecord]:
    """The task's step records. Lenient: a report of a damaged run shows every readable step.
    Only a regular file inside the task folder is read (not a FIFO, not a link out)."""
    try:
        confined(task_dir, TRAJECTORY_JSONL)
        return read_trajectory(task_dir, strict=False)
    except (OSError, ValueError):  # absent, refused, or the file itself cannot be read
        return []


# ---------------------------------------------------------------- rendering


def _value(value: Any, *, answer: bool = False) -> str:
    """An answer or expected value, with 'nothing' made visible: no answer is not an empty answer."""
    if value is None:
        return "<i>(no answer)</i>" if answer else "<i>(empty)</i>"
    if value == "":
        return "<i>(empty)</i>"
    return _e(value)


def _badge(passed: bool | None, how: str | None) -> str:
    if how == "unscored":
        return '<span class="badge" style="background:#777">UNSCORED</span>'
    return '<span class="badge pass">PASS</span>' if passed else '<span class="badge fail">FAIL</span>'


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


def _meta_rows(summary: dict[str, Any]) -> str:
    meta = summary.get("meta") or {}
    rows = []
    for key in ("model", "profile", "disabled", "seed", "workers", "started", "ended"):
        value = meta.get(key)
        if key == "disabled":
            value = ", ".join(value or []) or "none"
        rows.append(f"<tr><td>{_e(key)}</td><td>{_e(value if value is not None else '—')}</td></tr>")
    for key, value in meta.items():
        if key not in ("model", "profile", "disabled", "seed", "workers", "started", "ended"):
            rows.append(f"<tr><td>{_e(key)}</td><td>{_e(value)}</td></tr>")
    return '<table class="meta">' + "".join(rows) + "</table>"


def _group_table(title: str, groups: dict[str, dict[str, Any]]) -> str:
    if not groups:
        return ""
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td class=num>{g['passed']}/{g['tasks']}</td>"
        f"<td class=num>{g['success_rate']:.1%}</td></tr>"
        for name, g in groups.items()
    )
    return (
        f"<h3>{_e(title)}</h3><table><tr><th>{_e(title.split()[-1])}</th><th class=num>passed</th>"
        f"<th class=num>success</th></tr>{rows}</table>"
    )


def _tokens_cell(r: dict[str, Any]) -> str:
    tokens = r.get("tokens") or {}
    if not tokens:
        return "<td class=num>—</td><td class=num>—</td>"
    cost = r.get("cost")
    return (
        f"<td class=num>{float(tokens.get('uncached_input_tokens_per_step') or 0):,.0f} / "
        f"{float(tokens.get('input_tokens_per_step') or 0):,.0f}</td>"
        f"<td class=num>{'—' if cost is None else f'${cost:.4f}'}</td>"
    )


def _cost_rows(summary: dict[str, Any]) -> str:
    """The run's measured cost (eval/costs.py): tokens per step, cache reads, $ with --prices."""
    tokens = summary.get("tokens") or {}
    if not tokens:
        return ""
    keys = (
        "input_tokens_per_step",
        "uncached_input_tokens_per_step",
        "cache_read_fraction",
        "output_tokens_per_step",
        "cache_miss_calls",
        "estimated_calls",
        "cost",
    )
    rows = "".join(f"<tr><td>{_e(k)}</td><td>{_e(tokens.get(k, '—'))}</td></tr>" for k in keys if k in tokens)
    return f'<h3>Cost</h3><table class="meta">{rows}</table>'


def _failure_table(summary: dict[str, Any]) -> str:
    """Why the failed tasks failed: seed 003's label (docs/glossary.md) (with its group) and the first stage that went wrong."""
    labels: dict[str, int] = summary.get("taxonomy") or {}
    stages: dict[str, int] = summary.get("stages") or {}
    if not labels and not stages:
        return ""
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td>{_e(GROUPS.get(name) or '—')}</td><td class=num>{n}</td></tr>"
        for name, n in labels.items()
    )
    stage_rows = "".join(f"<tr><td>{_e(name)}</td><td class=num>{n}</td></tr>" for name, n in stages.items())
    return (
        '<h3>Why tasks failed</h3><table id="taxonomy"><tr><th>failure label</th><th>group</th>'
        f"<th class=num>tasks</th></tr>{rows}</table>"
        f'<table id="stages"><tr><th>first stage that went wrong</th><th class=num>tasks</th></tr>'
        f"{stage_rows}</table>"
    )


def _failure(row: dict[str, Any]) -> str:
    return " · ".join(x for x in (row.get("taxonomy"), row.get("stage")) if x)


def _task_table(per_task: dict[str, dict[str, Any]], anchors: dict[str, str]) -> str:
    rows = []
    for tid, r in per_task.items():
        rows.append(
            f'<tr class="task-row" data-task-id="{_e(tid)}"><td><a href="#{anchors[tid]}">{_e(tid)}</a></td>'
            f"<td>{_badge(r.get('passed'), r.get('how'))}</td><td>{_e(r.get('status'))}</td>"
            f"<td>{_value(r.get('answer'), answer=True)}</td><td>{_value(r.get('expected'))}</td>"
            f"<td>{_e(r.get('how'))}</td><td>{_e(_failure(r))}</td>"
            f"<td class=num>{_e(r.get('steps'))}</td><td class=num>{float(r.get('seconds') or 0):.1f}</td>"
            f"{_tokens_cell(r)}</tr>"
        )
    head = (
        "<tr><th>task</th><th>result</th><th>status</th><th>answer</th><th>expected</th><th>match</th>"
        "<th>failure</th><th class=num>steps</th><th class=num>seconds</th><th class=num>uncached / input tokens per step</th>"
        "<th class=num>cost</th></tr>"
    )
    return f'<table id="task-table">{head}{"".join(rows)}</table>'


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


def _task_section(
    tid: str,
    row: dict[str, Any],
    task_dir: Path,
    anchor: str,
    steps: list[tuple[StepRecord, Path | str | None]],
    thumbs: dict[Path, Thumb],
) -> str:
    result, _ = check_result(task_dir)
    head = (
        f'<div class="task-head">{_badge(row.get("passed"), row.get("how"))}'
        f'<h2>{_e(tid)}</h2><a href="#task-table">↑ all tasks</a></div>'
    )
    kv = [
        f'<div class="kv"><b>task</b> {_e(row.get("task") or (result.task if result else ""))}</div>',
        f'<div class="kv"><b>start</b> {_e(result.website if result else "")}</div>',
        f'<div class="kv"><b>answer</b> <code class="answer">{_value(row.get("answer"), answer=True)}</code> · '
        f"<b>expected</b> <code>{_value(row.get('expected'))}</code> · <b>match</b> {_e(row.get('how'))}"
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
    if _failure(row):
        kv.append(f'<div class="kv failure"><b>failure</b> {_e(_failure(row))}</div>')
    if row.get("error"):
        kv.append(f'<div class="kv error"><b>error</b> {_e(redact_text(row["error"]))}</div>')
    kv += _judged_html(task_dir, tid, result.truth if result else None)
    kv.append(evidence_html(result, task_dir, task_dir.parent))
    timeline = "".join(_step_html(s, image, anchor, thumbs) for s, image in steps)
    if not timeline:
        timeline = '<li class="noimg">no steps recorded</li>'
    return (
        f'<section class="task" id="{anchor}" data-task-id="{_e(tid)}">{head}{"".join(kv)}'
        f'<ol class="timeline">{timeline}</ol></section>'
    )


def _outside_rules(run_dir: Path) -> list[str]:
    """The rule-breaking tools the run had on (run.json; else any task's result.json)."""
    try:
        info = read_run_info(run_dir)
    except RecordError:
        info = None
    if info is not None:
        return list(info.outside_rules)
    for d in _task_dirs(run_dir):
        result, _ = check_result(d)
        if result is not None:
            return list(result.outside_rules)
    return []


def render_report(run_dir: Path, *, thumb_width: int = THUMB_WIDTH) -> str:
    run_dir = Path(run_dir)
    # A `webfovea run` folder is one task folder: its task's folder is the folder itself.
    root = run_dir.resolve().parent if is_task_folder(run_dir) else run_dir
    summary, warning = gather_task_folder(run_dir) if root is not run_dir else gather(run_dir)
    per_task: dict[str, dict[str, Any]] = summary.get("per_task", {})
    steps = {
        tid: [(r, step_image(r, root / tid, run_dir)) for r in read_steps(root / tid)]
        if (root / tid).resolve().is_relative_to(run_dir.resolve())
        else []  # a task folder linked out of the run: nothing of it is read
        for tid in per_task
    }
    images = [image for recs in steps.values() for _, image in recs if isinstance(image, Path)]
    thumbs = thumbnails(list(dict.fromkeys(images)), thumb_width)
    anchors = {tid: f"task-{i}" for i, tid in enumerate(per_task)}
    total, passed = summary.get("tasks", len(per_task)), summary.get("passed", 0)
    meta = summary.get("meta") or {}
    title = f"webfovea report · {meta.get('profile') or run_dir.name} · {passed}/{total}"
    banner = f'<div class="banner" id="partial-banner">{_e(warning)}</div>' if warning else ""
    outside = _outside_rules(run_dir)
    if outside:
        banner += (
            f'<div class="banner" id="outside-rules">OUTSIDE THE CHALLENGE\'S RULES: this run offered '
            f"{_e(', '.join(outside))} (the challenge winner's tools, seed 002, for comparison only)</div>"
        )
    body = [
        f"<h1>{_e(title)}</h1><div class=kv>{_e(str(run_dir.resolve()))}</div>",
        banner,
        f'<p class="counts" id="counts">Passed {passed}/{total} ({float(summary.get("success_rate", 0)):.1%})</p>',
        _meta_rows(summary),
        _cost_rows(summary),
        _group_table("By failure class", summary.get("per_failure_class") or {}),
        _group_table("By category", summary.get("per_category") or {}),
        _failure_table(summary),
        *_plugin_sections(summary),
        "<h2>Tasks</h2>",
        _task_table(per_task, anchors),
    ]
    body += [
        _task_section(tid, row, root / tid, anchors[tid], steps[tid], thumbs) for tid, row in per_task.items()
    ]
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>"
        + "".join(body)
        + "</main></body></html>"
    )


def write_report(run_dir: Path, out: Path | None = None, *, thumb_width: int = THUMB_WIDTH) -> Path:
    """Write the report (default `<run_dir>/report.html`) and return its path.

    An A/B folder (`webfovea ab`, with ab.json) gets the comparison report: the chart, the
    arms and the pairs; each arm's run folder has its own run report."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: no such run folder")
    target = Path(out) if out is not None else run_dir / "report.html"
    if (run_dir / AB_JSON).exists() or (run_dir / AB_JSON).is_symlink():
        ab, problem = read_ab_file(run_dir)
        page = render_ab_report(ab) if problem is None else render_ab_error(problem)
        return write_text_atomic(target, page)
    return write_text_atomic(target, render_report(run_dir, thumb_width=thumb_width))
