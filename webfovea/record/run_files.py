"""The run folder's files: one writer and one reader each.

run.json      new_run_info / write_run_info / mark_run_ended / read_run_info
tasks.json    write_run_tasks / read_run_tasks
summary.json  write_summary_file / read_summary_file (eval/summary.py computes the Summary)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from webfovea.config import HarnessConfig
from webfovea.record.atomic import RecordError, now_iso, read_json_model, write_json_atomic
from webfovea.record.files import config_fields
from webfovea.record.run_schema import (
    PARTIAL_SUMMARY_JSON,
    RUN_JSON,
    SUMMARY_JSON,
    TASKS_JSON,
    RunInfo,
    Summary,
)
from webfovea.task import Task

# ---------------------------------------------------------------- run.json


def new_run_info(*, model: str, config: HarnessConfig, **fields: Any) -> RunInfo:
    """The record of a run starting now: the whole config, and profile/disabled derived from it.

    `fields` are the other RunInfo fields (workers, backend, tasks, queue_at_start, ...)."""
    return RunInfo(model=model, started_at=now_iso(), ended_at=None, **config_fields(config), **fields)


def write_run_info(out_dir: Path, info: RunInfo, *, new_run: bool = True) -> Path:
    """Write run.json. With `new_run` (a run starting), the record already there — an earlier
    run into this folder — moves into `info.previous_runs` (its own history flattened in first,
    oldest first). With `new_run=False` the file is replaced by `info` as given (an update of
    the current run, `info` read back with read_run_info)."""
    path = Path(out_dir) / RUN_JSON
    if new_run:
        try:
            old = read_run_info(out_dir)
        except RecordError:
            # Unreadable (cut by a crash, a full disk): it cannot be merged, but it is the run
            # history, so it is kept beside the new record (run.json.damaged, .damaged.2 ...).
            old = None
            _keep_damaged(path)
        if old is not None:
            history = list(old.previous_runs or [])
            history.append(old.model_copy(update={"previous_runs": None}))
            info = info.model_copy(update={"previous_runs": history})
    return write_json_atomic(path, info)


def _keep_damaged(path: Path) -> Path:
    n, target = 1, path.with_name(path.name + ".damaged")
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged.{n}")
    path.replace(target)
    return target


def read_run_info(out_dir: Path) -> RunInfo | None:
    """run.json, or None when the folder has none; RecordError when it is unreadable."""
    return read_json_model(Path(out_dir) / RUN_JSON, RunInfo)


def mark_run_ended(
    out_dir: Path, *, interrupted: bool, budget: dict[str, Any] | None = None
) -> RunInfo | None:
    """Record the end of the current run in run.json (ended_at, interrupted, and the run's
    `budget` with its spend when it had one); None when there is no readable run.json to update."""
    try:
        info = read_run_info(out_dir)
    except RecordError:
        return None
    if info is None:
        return None
    update: dict[str, Any] = {"ended_at": now_iso(), "interrupted": interrupted}
    if budget is not None:
        update["budget"] = budget
    info = info.model_copy(update=update)
    write_run_info(out_dir, info, new_run=False)
    return info


def write_model_quirks(out_dir: Path, task_ids: list[str]) -> dict[str, Any] | None:
    """Gather the tasks' `model_quirks` (result.json) into run.json's `model_quirks`: counts per
    quirk and the log naming task and call. None (run.json untouched) when no task played one."""
    from webfovea.record.files import read_result

    log: list[dict[str, Any]] = []
    for task_id in task_ids:
        result = read_result(Path(out_dir) / task_id)
        for entry in (result.model_quirks or []) if result is not None else []:
            log.append({"task_id": task_id, **({"step": entry["call"]} if "call" in entry else {}), **entry})
    if not log:
        return None
    counts: dict[str, int] = {}
    for entry in log:
        name = str(entry.get("quirk") or entry.get("kind") or "unknown")
        counts[name] = counts.get(name, 0) + 1
    quirks = {"counts": dict(sorted(counts.items())), "tasks": len({e["task_id"] for e in log}), "log": log}
    try:
        info = read_run_info(out_dir)
    except RecordError:
        return None
    if info is not None:
        write_run_info(out_dir, info.model_copy(update={"model_quirks": quirks}), new_run=False)
    return quirks


# ---------------------------------------------------------------- tasks.json


def write_run_tasks(out_dir: Path, tasks: list[Task]) -> Path:
    return write_json_atomic(Path(out_dir) / TASKS_JSON, [t.model_dump(mode="json") for t in tasks])


def read_run_tasks(out_dir: Path) -> list[Task] | None:
    """The run's task list as the runner recorded it, None when it has none; RecordError when
    tasks.json is unreadable."""
    path = Path(out_dir) / TASKS_JSON
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise RecordError(f"{path}: cannot read ({' '.join(str(e).split())[:300]})") from None
    if not isinstance(data, list):
        raise RecordError(f"{path}: not a list of tasks")
    try:
        return [Task.model_validate(t) for t in data]
    except ValidationError as e:
        raise RecordError(f"{path}: not a list of tasks ({' '.join(str(e).split())[:300]})") from None


# ---------------------------------------------------------------- summary.json


def write_summary_file(out_dir: Path, summary: Summary) -> Path:
    """summary.json for a complete run, else summary.partial.json; the other one is removed,
    so no reader can take a half-finished run for a finished one. Returns the path written."""
    out_dir = Path(out_dir)
    name, stale = (
        (SUMMARY_JSON, PARTIAL_SUMMARY_JSON) if summary.complete else (PARTIAL_SUMMARY_JSON, SUMMARY_JSON)
    )
    path = write_json_atomic(out_dir / name, summary)
    (out_dir / stale).unlink(missing_ok=True)
    return path


def read_summary_file(out_dir: Path) -> tuple[Summary, bool] | None:
    """(summary, is_partial): summary.json first, else summary.partial.json; None when the run
    has neither; RecordError when the one found is unreadable or not a summary."""
    for name, partial in ((SUMMARY_JSON, False), (PARTIAL_SUMMARY_JSON, True)):
        summary = read_json_model(Path(out_dir) / name, Summary)
        if summary is not None:
            return summary, partial or not summary.complete
    return None
