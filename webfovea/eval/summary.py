"""The run summary: every task's result scored against its expected answer, and the aggregates.

`summary.json` is written only for a complete run. A run that stopped early gets
`summary.partial.json` instead (and any older `summary.json` is removed), so no reader can
mistake a half-finished run for a finished one.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.table import Table

from webfovea.eval.scoring import Score, score_answer
from webfovea.record.schema import TaskResult
from webfovea.task import Task

SUMMARY = "summary.json"
PARTIAL = "summary.partial.json"
TASKS = "tasks.json"
META_KEYS = ("model", "profile", "disabled", "seed", "workers", "started", "ended")


def read_result(task_dir: Path) -> tuple[TaskResult | None, str | None]:
    """The task's result, or (None, why) when it has none or it cannot be read."""
    path = task_dir / "result.json"
    if not path.is_file():
        return None, None
    try:
        return TaskResult.model_validate_json(path.read_text(encoding="utf-8")), None
    except (OSError, ValueError, ValidationError) as e:
        return None, f"unreadable result.json: {' '.join(str(e).split())[:200]}"


def score_result(task: Task, result: TaskResult) -> Score:
    """A task passes only when the model finished it and the answer matches.

    Requiring `finished` matters for tasks whose expected answer is empty: a run that ran out
    of steps has no answer either, but it did not answer "nothing".
    """
    if result.status != "finished":
        return Score(False, "empty" if result.answer is None else "mismatch", f"ended with {result.status}")
    return score_answer(result.answer, task.answer)


def _rate(passed: int, total: int) -> float:
    return round(passed / total, 4) if total else 0.0


def _group(per_task: dict[str, dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    counts: dict[str, list[int]] = {}
    for row in per_task.values():
        values = row.get(key)
        names = values if isinstance(values, list) else ([values] if values else [])
        for name in names:
            c = counts.setdefault(name, [0, 0])
            c[0] += 1
            c[1] += int(row["passed"])
    return {
        name: {"tasks": t, "passed": p, "success_rate": _rate(p, t)} for name, (t, p) in sorted(counts.items())
    }


def build_summary(run_dir: Path, tasks: list[Task], *, complete: bool, meta: dict[str, Any]) -> dict[str, Any]:
    """Score every task of the run from its folder; a task without result.json is 'missing'."""
    run_dir = Path(run_dir)
    per_task: dict[str, dict[str, Any]] = {}
    results: list[TaskResult] = []
    for task in tasks:
        result, problem = read_result(run_dir / task.task_id)
        row: dict[str, Any] = {
            "task": task.task,
            "expected": task.answer,
            "category": task.category,
            "failure_classes": list(task.failure_classes),
        }
        if result is None:
            row.update(status="unreadable" if problem else "missing", answer=None, score=0.0, passed=False,
                       how="empty", steps=0, seconds=0.0, error=problem or "no result.json")
        else:
            results.append(result)
            sc = score_result(task, result)
            row.update(status=result.status, answer=result.answer, score=sc.score, passed=sc.passed,
                       how=sc.how, steps=result.steps, seconds=round(result.seconds, 2), error=result.error)
            if sc.detail:
                row["detail"] = sc.detail
        per_task[task.task_id] = row

    passed = sum(1 for r in per_task.values() if r["passed"])
    missing = sum(1 for r in per_task.values() if r["status"] in ("missing", "unreadable"))
    return {
        "tasks": len(tasks),
        "passed": passed,
        "failed": len(tasks) - passed,
        "success_rate": _rate(passed, len(tasks)),
        "complete": complete,
        "missing": missing,
        "statuses": dict(Counter(r["status"] for r in per_task.values())),
        "steps_total": sum(r["steps"] for r in per_task.values()),
        "seconds_total": round(sum(r["seconds"] for r in per_task.values()), 2),
        "meta": _meta(meta, results),
        "per_task": per_task,
        "per_failure_class": _group(per_task, "failure_classes"),
        "per_category": _group(per_task, "category"),
    }


def _meta(given: dict[str, Any], results: list[TaskResult]) -> dict[str, Any]:
    """What the runner told us, completed from the results (which record model and profile)."""
    derived: dict[str, Any] = {k: None for k in META_KEYS}
    first = next((r for r in results if r.model or r.profile), None)
    if first is not None:
        derived.update(model=first.model, profile=first.profile, disabled=list(first.disabled))
    starts = [r.started_at for r in results if r.started_at]
    ends = [r.ended_at for r in results if r.ended_at]
    derived["started"] = min(starts) if starts else None
    derived["ended"] = max(ends) if ends else None
    derived.update({k: v for k, v in given.items() if v is not None})
    if derived.get("disabled") is None:
        derived["disabled"] = []
    return derived


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    os.replace(tmp, path)


def write_summary(run_dir: Path, tasks: list[Task], *, complete: bool, meta: dict[str, Any]) -> Path:
    """Write summary.json (complete run) or summary.partial.json (not); return the path written."""
    run_dir = Path(run_dir)
    summary = build_summary(run_dir, tasks, complete=complete, meta=meta)
    target, stale = (run_dir / SUMMARY, run_dir / PARTIAL) if complete else (run_dir / PARTIAL, run_dir / SUMMARY)
    if not complete:
        summary["note"] = (
            f"PARTIAL RUN: {summary['missing']} of {summary['tasks']} tasks have no result; "
            "the success rate counts them as failed"
        )
    _write_json(target, summary)
    stale.unlink(missing_ok=True)
    return target


def load_summary(run_dir: Path) -> tuple[dict[str, Any], bool] | None:
    """(summary, is_partial) from a run folder, or None when it has neither file."""
    for name, partial in ((SUMMARY, False), (PARTIAL, True)):
        path = Path(run_dir) / name
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or "per_task" not in data:
                raise ValueError(f"{path} is not a webfovea summary")
            return data, partial or not data.get("complete", True)
    return None


def load_run_tasks(run_dir: Path) -> list[Task] | None:
    """The run's task list as the runner recorded it in tasks.json, if it did."""
    path = Path(run_dir) / TASKS
    if not path.is_file():
        return None
    return [Task.model_validate(t) for t in json.loads(path.read_text(encoding="utf-8"))]


def format_summary_table(summary: dict[str, Any]) -> Table:
    """The terminal view: overall, then per failure class and per category."""
    meta = summary.get("meta", {})
    label = meta.get("profile") or "run"
    if meta.get("disabled"):
        label += " −" + ",−".join(meta["disabled"])
    title = f"{label} · model {meta.get('model') or '?'}"
    if not summary.get("complete", False):
        title += f" · PARTIAL ({summary.get('missing', 0)} tasks missing)"
    table = Table(title=title)
    table.add_column("group")
    table.add_column("passed", justify="right")
    table.add_column("success", justify="right")
    table.add_row("all tasks", f"{summary['passed']}/{summary['tasks']}", f"{summary['success_rate']:.1%}",
                  style="bold")
    for heading, key in (("class", "per_failure_class"), ("category", "per_category")):
        groups = summary.get(key) or {}
        if groups:
            table.add_section()
        for name, g in groups.items():
            table.add_row(f"{heading}: {name}", f"{g['passed']}/{g['tasks']}", f"{g['success_rate']:.1%}")
    return table
