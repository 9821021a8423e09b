"""The HTML report of a run: one file a person opens beside the run folder.

Its CSS is inline and it needs no network. Screenshots are linked by relative URLs and loaded
lazily (`images="lazy"`, the default: the report of the built-in suite is a few hundred KB,
not 8.6 MB); `images="inline"` (`webfovea report --inline`) embeds them as JPEG data URIs about
720 px wide, so the one file can be mailed or archived without the run folder. All page and model text is escaped: replies can
hold chat-template tokens and markup, and a report must never run what a page or model wrote
(`eval/html.py`). Screenshots: `eval/report/images.py` (bounded, read inside the run only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webfovea.eval import html
from webfovea.eval.ab import AB_JSON, read_ab_file
from webfovea.eval.report.ab import render_ab_error, render_ab_report
from webfovea.eval.report.images import IMAGES, THUMB_WIDTH, Images, linker, step_image, thumbnail, thumbnails
from webfovea.eval.report.single import gather_task_folder, is_task_folder
from webfovea.eval.report.style import CSS
from webfovea.eval.report.tables import (
    cost_rows,
    failure_table,
    group_table,
    meta_rows,
    task_table,
)
from webfovea.eval.report.tasks import read_steps, task_section
from webfovea.eval.summary import build_summary, load_summary
from webfovea.plugins import plugin_manager
from webfovea.record import (
    RecordError,
    check_result,
    read_run_info,
    read_run_tasks,
    write_text_atomic,
)
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


# ---------------------------------------------------------------- rendering


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


def render_report(
    run_dir: Path, *, thumb_width: int = THUMB_WIDTH, images: Images = "lazy", base: Path | None = None
) -> str:
    """The report's HTML. `images`: `lazy` links each screenshot relative to `base` (the folder
    the report is written to; default the run folder), `inline` embeds a thumbnail."""
    if images not in IMAGES:
        raise ValueError(f"images={images!r}: choose one of {', '.join(IMAGES)}")
    run_dir = Path(run_dir)
    src = linker(base if base is not None else run_dir) if images == "lazy" else thumbnail
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
    shots = [image for recs in steps.values() for _, image in recs if isinstance(image, Path)]
    thumbs = thumbnails(list(dict.fromkeys(shots)), thumb_width, src)
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
        meta_rows(summary),
        cost_rows(summary),
        group_table("By failure class", summary.get("per_failure_class") or {}),
        group_table("By category", summary.get("per_category") or {}),
        failure_table(summary),
        *_plugin_sections(summary),
        "<h2>Tasks</h2>",
        task_table(per_task, anchors),
    ]
    body += [
        task_section(tid, row, root / tid, anchors[tid], steps[tid], thumbs, src)
        for tid, row in per_task.items()
    ]
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>"
        + "".join(body)
        + "</main></body></html>"
    )


def write_report(
    run_dir: Path, out: Path | None = None, *, thumb_width: int = THUMB_WIDTH, images: Images = "lazy"
) -> Path:
    """Write the report (default `<run_dir>/report.html`) and return its path. `images`: `lazy`
    (screenshots linked relative to the report's folder, loaded as they scroll into view) or
    `inline` (embedded thumbnails: one file that travels without the run folder).

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
    page = render_report(run_dir, thumb_width=thumb_width, images=images, base=target.parent)
    return write_text_atomic(target, page)


__all__ = ["gather", "read_steps", "render_report", "write_report"]
