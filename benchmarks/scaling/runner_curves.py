"""Curves of the runner: its overhead against the number of tasks and of workers.

- `queue`: N tasks that do nothing but write their result (the task function below, sent to
  the workers by reference), two local workers; the run's wall time per task is the queue's and
  the workers' bookkeeping (SQLite queue, heartbeats, result files, the driver's progress),
  with the two browser launches as the fixed cost.
- `workers`: 48 tasks that each wait 0.5 s (a task bound by a page or a model, not the CPU),
  on 1 → 8 local workers; the wall time against the ideal 48 × 0.5 s / workers shows what
  each added worker costs on the machine (its launch, its memory, the driver's polling).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from fit import Curve

from webfovea.config import make_config
from webfovea.record.schema import TaskResult
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.task import Task

HERE = str(Path(__file__).resolve().parent)


async def noop_task(task: Task, task_dir: Path, **_: Any) -> TaskResult:
    """Writes its result and returns: what is left is the runner's own cost."""
    wait = float((task.model_extra or {}).get("wait", 0.0))
    if wait:
        await asyncio.sleep(wait)
    res = TaskResult(
        task_id=task.task_id, status="finished", task=task.task, model="none", answer="ok", steps=1
    )
    Path(task_dir).mkdir(parents=True, exist_ok=True)
    (Path(task_dir) / "result.json").write_text(res.model_dump_json())
    return res


def _tasks(n: int, wait: float = 0.0) -> list[Task]:
    return [
        Task(task_id=f"t{i:05d}", task="nothing", website="http://127.0.0.1:9/", wait=wait) for i in range(n)
    ]


def _run(tasks: list[Task], workers: int) -> float:
    # The workers import this module by name: they inherit the path.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (HERE, os.environ.get("PYTHONPATH", "")) if p)
    opts = RunOptions(
        model="none",
        config=make_config(),
        workers=workers,
        show_progress=False,
        task_fn=noop_task,
        task_timeout_s=60.0,
    )
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        outcome = run_tasks(tasks, Path(out), opts)
        wall = time.perf_counter() - t0
    done = sum(r.status == "finished" for r in outcome.results.values())
    assert done == len(tasks), f"{done} of {len(tasks)} finished"
    return wall


def run_queue(sizes: list[int], _reps: int) -> list[Curve]:
    c = Curve(
        "queue_tasks",
        "The runner against the number of tasks (2 workers, tasks that do nothing)",
        "tasks",
        "run wall time, s",
    )
    for n in sizes:
        wall = _run(_tasks(n), 2)
        c.points.append((n, wall))
        print(f"  queue {n:>6,} tasks: {wall:7.1f} s ({wall / n * 1000:.1f} ms a task)")
    return [c]


def run_workers(sizes: list[int], _reps: int) -> list[Curve]:
    n, wait = 48, 0.5
    c = Curve("workers", f"{n} tasks of {wait} s against local workers", "workers", "run wall time, s")
    c.extra["ideal, s"] = []
    for w in sizes:
        wall = _run(_tasks(n, wait), w)
        c.points.append((w, wall))
        c.extra["ideal, s"].append((w, n * wait / w))
        print(f"  workers {w}: {wall:6.1f} s (ideal {n * wait / w:.1f} s)")
    return [c]
