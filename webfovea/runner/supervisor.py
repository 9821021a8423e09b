"""What the parent decides, whatever runs the workers (processes or Ray actors).

- A worker is *stuck* when its heartbeat is stale, when it stays in `launching` too long,
  or when its task has run well past the per-task limit the worker should have enforced.
- A worker that died or was killed leaves claimed tasks without result.json; the parent
  writes them (`worker_lost`, with the reason) and exports their passive capture, and the
  run continues. Those tasks are not put back in the queue: tasks never run twice.
- Each worker slot is restarted at most `max_restarts` times.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.record.capture import CAPTURE_JSON, TEMP_DB, export_capture
from webfovea.record.files import failure_result, now_iso, read_result, write_result
from webfovea.runner.queue import TaskQueue
from webfovea.task import Task


@dataclass
class Policy:
    stall_s: float = 60.0  # no heartbeat for this long: the worker's event loop is stuck
    launch_s: float = 120.0  # in 'launching' for this long: the browser will not come up
    task_grace_s: float = 60.0  # beyond the per-task limit the worker itself should enforce
    max_restarts: int = 2
    stop_grace_s: float = 15.0  # after Ctrl-C, how long workers get to record 'interrupted'
    poll_s: float = 0.5


def stuck_reason(
    row: dict[str, Any], policy: Policy, task_timeout_s: float, stage_since: float | None = None,
    now: float | None = None,
) -> str | None:
    """Why this worker (a row of the workers table) should be killed, or None.

    `stage_since` is when the parent first saw the worker in its current stage: heartbeats
    keep coming while a browser launch hangs, so staleness alone would not catch it.
    """
    now = time.time() if now is None else now
    beat = row.get("heartbeat_at") or now
    if now - beat > policy.stall_s:
        return f"no heartbeat for {now - beat:.0f} s (stage {row.get('stage')!r})"
    if row.get("stage") == "launching" and stage_since is not None and now - stage_since > policy.launch_s:
        return f"browser not up after {now - stage_since:.0f} s"
    started = row.get("task_started_at")
    if row.get("task_id") and started and now - started > task_timeout_s + policy.task_grace_s:
        return f"task {row['task_id']} ran {now - started:.0f} s, past its {task_timeout_s:g} s limit"
    return None


class Events:
    """`<out>/runner.log.jsonl`: what the parent saw and did (claims, results, restarts)."""

    def __init__(self, out_dir: Path) -> None:
        self.path = Path(out_dir) / "runner.log.jsonl"

    def write(self, event: str, **fields: Any) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps({"at": now_iso(), "event": event, **fields}) + "\n")


def salvage(
    q: TaskQueue, tasks: dict[str, Task], worker_id: str, status: str, reason: str, events: Events | None = None
) -> list[str]:
    """Record the tasks a gone worker had claimed. Returns their ids."""
    salvaged = []
    for tid in q.claimed_by(worker_id):
        task_dir = q.out_dir / tid
        res = read_result(task_dir)
        if res is None:
            res = failure_result(tasks.get(tid), tid, status, reason)
            write_result(task_dir, res)
        if (task_dir / TEMP_DB).exists() or not (task_dir / CAPTURE_JSON).exists():
            export_capture(
                task_dir / TEMP_DB, task_dir / CAPTURE_JSON,
                note=f"exported by the parent after worker {worker_id} was lost ({reason})",
            )
        q.finish(tid, res.status)
        salvaged.append(tid)
        if events:
            events.write("task_lost", task_id=tid, worker=worker_id, status=res.status, reason=reason)
    return salvaged


def load_results(out_dir: Path, tasks: list[Task]) -> dict[str, Any]:
    """Final results on disk, by task id (missing tasks are absent)."""
    out = {}
    for t in tasks:
        res = read_result(Path(out_dir) / t.task_id)
        if res is not None:
            out[t.task_id] = res
    return out
