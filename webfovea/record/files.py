"""The task folder's files: one reader and one writer each (moved from runner/queue.py)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from webfovea.record.schema import TaskResult
from webfovea.record.writer import redact_result
from webfovea.task import Task


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_result(task_dir: Path) -> TaskResult | None:
    """The task's result.json, or None when missing or unreadable (a half-written file)."""
    path = task_dir / "result.json"
    try:
        return TaskResult.model_validate_json(path.read_text())
    except (OSError, ValueError):
        return None


def write_result(task_dir: Path, result: TaskResult) -> None:
    """Write result.json atomically so a reader never sees half a file."""
    task_dir.mkdir(parents=True, exist_ok=True)
    tmp = task_dir / f".result.json.{os.getpid()}.tmp"
    tmp.write_text(redact_result(result).model_dump_json(indent=2))
    os.replace(tmp, task_dir / "result.json")


def failure_result(task: Task | None, task_id: str, status: str, error: str, **extra: Any) -> TaskResult:
    """A result for a task that did not end by itself (worker lost, timed out, interrupted)."""
    return TaskResult(
        task_id=task_id,
        status=status,  # type: ignore[arg-type]
        error=error,
        task=task.task if task else None,
        website=task.website if task else None,
        ended_at=now_iso(),
        **extra,
    )
