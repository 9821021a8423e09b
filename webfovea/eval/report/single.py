"""The report of one task folder (what `webfovea run --out DIR` writes): result.json and the
trajectory sit in the folder itself, not in a folder per task under it, so the run's summary
is computed for that one task and its answer shown unscored (a `run` has no expected answer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webfovea.eval.summary import build_summary
from webfovea.record import check_result
from webfovea.record.schema import RESULT_JSON, TRAJECTORY_JSONL
from webfovea.task import Task

UNSCORED = (
    "ONE TASK: this is the folder of a single task (`webfovea run`); its answer is shown but not "
    "scored, since the run had no expected answer (`webfovea bench` scores a suite's tasks)"
)


def is_task_folder(folder: Path) -> bool:
    """A task folder itself rather than a run folder of task folders."""
    return (folder / RESULT_JSON).is_file() or (folder / TRAJECTORY_JSONL).is_file()


def gather_task_folder(folder: Path) -> tuple[dict[str, Any], str]:
    """The summary of a one-task folder (its task id is the folder's name, so every path the
    report builds, parent / id, is the folder itself) and the banner that says it is unscored."""
    folder = folder.resolve()  # `.` has no name
    result, _ = check_result(folder)
    task = Task(
        task_id=folder.name,
        task=(result.task if result else None) or "",
        website=(result.website if result else None) or "",
    )
    summary = build_summary(folder.parent, [task], complete=result is not None, meta={})
    for row in summary["per_task"].values():
        row.update(expected="(unknown)", passed=False, how="unscored", score=0.0)
    summary["passed"], summary["success_rate"] = 0, 0.0
    return summary, UNSCORED
