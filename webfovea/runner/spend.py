"""A run's spending cap: checked before the driver hands a worker its next task.

The spend is what the run's tasks recorded — the usage in their result.json files (every role
of every task; guardrails/spend.py), the earlier invocations' of a resumed run included — read
when a task is handed in, never reported on the side. Once it reaches the cap, no task is
started again; tasks already running end on their own (each within its own task budget), and
the tasks never started stay pending: the same command with a larger budget runs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webfovea.guardrails.spend import SpendCap
from webfovea.record.files import read_result
from webfovea.record.schema import TaskResult
from webfovea.runner.queue import NON_FINAL
from webfovea.task import Task


class RunSpend:
    """The cap and the results it counts, by task id; `stopped`: why no task starts any more."""

    def __init__(self, cap: SpendCap, out_dir: Path, tasks: list[Task]) -> None:
        self.cap = cap
        self.results: dict[str, TaskResult] = {}
        self.stopped: str | None = None
        for t in tasks:  # a resumed run: what its earlier invocations spent counts too
            res = read_result(Path(out_dir) / t.task_id)
            if res is not None and res.status not in NON_FINAL:
                self.results[t.task_id] = res

    def record(self, task_id: str, result: TaskResult) -> None:
        """A task handed in: its recorded usage counts from now on."""
        self.results[task_id] = result

    def reached(self) -> str | None:
        """Why no task may start (the spend so far at or above the cap), or None. Once reached,
        it stays reached for the rest of the run."""
        if self.stopped is None:
            why = self.cap.reached(self.cap.spent_by(self.results.values()))
            if why is not None:
                self.stopped = f"run {why}"
        return self.stopped

    def to_json(self, not_started: int) -> dict[str, Any]:
        """run.json's and summary.json's `budget`: the cap, the spend, and whether it stopped the run."""
        spent = self.cap.spent_by(self.results.values())
        out: dict[str, Any] = {**self.cap.to_json(), "spent": spent.to_json()}
        if self.stopped is not None:
            out.update(stopped=self.stopped, not_started=not_started)
        return out
