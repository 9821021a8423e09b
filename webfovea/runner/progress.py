"""The live view of a run, fed from the queue database (so it shows any backend's workers).

On a terminal: one Rich table (worker, task, stage/step, elapsed) under a line with the
done / finished / pass counts. Otherwise (CI logs, files): one plain line per event.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from webfovea.console import make_console
from webfovea.eval.scoring import score_answer
from webfovea.record.files import read_result
from webfovea.record.schema import TaskResult
from webfovea.runner.queue import TaskQueue
from webfovea.task import Task


def passed(
    task: Task | None, answer: str | None, status: str, state_passed: bool | None = None
) -> bool | None:
    """Did the task pass? A stateful task by its backend state (`state_passed`: obligations met,
    for a retrieval task also the answer); else by the answer (None without an expected one)."""
    if state_passed is not None and task is not None:
        if task.answer is None or not state_passed:
            return state_passed
    if task is None or task.answer is None:
        return None
    if status != "finished" or answer is None:
        return False
    return bool(score_answer(answer, task.answer).passed)


class Progress:
    def __init__(
        self,
        tasks: list[Task],
        out_dir: Path,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        state_passed: Callable[[Task, TaskResult], bool | None] | None = None,
    ) -> None:
        self.tasks = {t.task_id: t for t in tasks}
        self.state_judge = state_passed
        self.out_dir = Path(out_dir)
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.console = make_console(file=self.stream)
        self.live_mode = enabled and self.console.is_terminal
        self._live: Live | None = None
        self._seen_done: set[str] = set()
        self._seen_claims: dict[str, str | None] = {}
        self._passes = 0
        self._finished = 0
        self._t0 = time.time()

    def __enter__(self) -> Progress:
        if self.live_mode:
            self._live = Live(console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None

    def _state_passed(self, tid: str, res: TaskResult | None) -> bool | None:
        """The backend's verdict on a stateful task (result.json's, else the live judge's)."""
        task = self.tasks.get(tid)
        if res is None or task is None:
            return None
        if res.state is not None and getattr(res.state, "passed", None) is not None:
            return bool(getattr(res.state, "passed"))  # noqa: B009 - an extra key of StateScore
        if self.state_judge is None:
            return None
        try:
            return self.state_judge(task, res)
        except Exception:  # noqa: BLE001 - the line is a view; summary.json has the verdict
            return None

    def note(self, message: str) -> None:
        """A one-off event (restart, lost task) shown in both modes."""
        if self.enabled:
            self.console.print(message, highlight=False, markup=False)

    def update(self, q: TaskQueue) -> None:
        if not self.enabled:
            return
        tasks = q.tasks()
        workers = q.workers()
        for t in tasks:
            tid = t["task_id"]
            if t["state"] == "done" and tid not in self._seen_done:
                self._seen_done.add(tid)
                res = read_result(self.out_dir / tid)
                status = res.status if res else t["status"] or "?"
                ok = passed(
                    self.tasks.get(tid), res.answer if res else None, status, self._state_passed(tid, res)
                )
                self._finished += status == "finished"
                self._passes += bool(ok)
                if not self.live_mode:
                    verdict = {True: " pass", False: " fail", None: ""}[ok]
                    self._line(f"done {tid} [{t['worker'] or '-'}] {status}{verdict}", tasks)
        for w in workers:
            if not self.live_mode and w["task_id"] and self._seen_claims.get(w["worker_id"]) != w["task_id"]:
                self._line(f"start {w['task_id']} [{w['worker_id']}]", tasks)
            self._seen_claims[w["worker_id"]] = w["task_id"]
        if self._live is not None:
            self._live.update(self._render(tasks, workers))

    def _counts(self, tasks: list[dict[str, Any]]) -> str:
        done = sum(t["state"] == "done" for t in tasks)
        return (
            f"{done}/{len(tasks)} done, {self._finished} answered, {self._passes} passed, "
            f"{time.time() - self._t0:.0f} s"
        )

    def _line(self, msg: str, tasks: list[dict[str, Any]]) -> None:
        self.console.print(f"{msg}  ({self._counts(tasks)})", highlight=False, markup=False)

    def _render(self, tasks: list[dict[str, Any]], workers: list[dict[str, Any]]) -> Group:
        table = Table(box=None, pad_edge=False)
        for col in ("worker", "task", "stage", "elapsed", "restarts"):
            table.add_column(col)
        now = time.time()
        for w in workers:
            started = w.get("task_started_at")
            table.add_row(
                w["worker_id"],
                w["task_id"] or "-",
                w["stage"] or "-",
                f"{now - started:.0f} s" if started and w["task_id"] else "-",
                str(w["restarts"]),
            )
        return Group(Text(self._counts(tasks), style="bold"), table)
