"""The one supervision loop, whatever runs the workers (local processes or Ray actors).

- A worker is *stuck* when its heartbeat is stale, when it stays in `launching` too long,
  or when its task has run well past the per-task limit the worker should have enforced.
- A worker that died or was killed leaves claimed tasks without a final result; the driver
  first refuses that worker's requests (so it can never hand in or claim anything again),
  places what its node sent back of its folders, then writes them (`worker_lost`, with the
  reason) and exports their passive capture, and the run continues. Those tasks are not
  put back in the queue: tasks never run twice.
- Each worker slot is restarted at most `max_restarts` times.
- Ctrl-C: the stop flag goes out through the channel and the backend's orderly stop; the
  workers record `interrupted`; whatever is still claimed after the grace period is too.
- A queue file replaced or damaged mid-run: the driver refuses every worker request (they
  are told to stop and exit), waits the stop grace, kills what is left, records the tasks the
  claim ledger shows in flight as `worker_lost` (not `interrupted`: only the user's Ctrl-C
  sends a started task back to the queue) and raises QueueError; finished results are files
  in the task folders and stay as they are.
"""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from webfovea.record.atomic import append_json_line
from webfovea.record.capture import CAPTURE_JSON, TEMP_DB, export_capture
from webfovea.record.files import failure_result, now_iso, read_result, write_result
from webfovea.runner.backends import Backend, Exit
from webfovea.runner.channel import Driver
from webfovea.runner.progress import Progress
from webfovea.runner.queue import NON_FINAL, QueueError, TaskQueue
from webfovea.runner.worker import EXIT_OK, WorkerSpec
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
    row: dict[str, Any],
    policy: Policy,
    task_timeout_s: float,
    stage_since: float | None = None,
    now: float | None = None,
) -> str | None:
    """Why this worker (a row of the workers table) should be killed, or None.

    `stage_since` is when the driver first saw the worker in its current stage: heartbeats
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
    """`<out>/runner.log.jsonl`: what the driver saw and did (starts, losses, restarts, uploads)."""

    def __init__(self, out_dir: Path) -> None:
        self.path = Path(out_dir) / "runner.log.jsonl"
        self._lock = threading.Lock()  # the channel's threads write here too

    def write(self, event: str, **fields: Any) -> None:
        with self._lock:  # through the records' scrub: an error may quote a secret
            append_json_line(self.path, {"at": now_iso(), "event": event, **fields})


def salvage(
    q: TaskQueue,
    tasks: dict[str, Task],
    worker_id: str,
    status: str,
    reason: str,
    events: Events | None = None,
) -> list[str]:
    """Record the tasks a gone worker had claimed. Returns their ids."""
    salvaged = []
    for tid in q.claimed_by(worker_id):
        task_dir = q.out_dir / tid
        res = read_result(task_dir)
        # A worker told to go may cancel its task on the way out and record it `interrupted`;
        # that status would make a resume run the task again, so a lost worker's word loses.
        if res is None or (res.status in NON_FINAL and status not in NON_FINAL):
            before = f" (the worker had recorded {res.status!r})" if res is not None else ""
            res = failure_result(tasks.get(tid), tid, status, reason + before)
            write_result(task_dir, res)
        if (task_dir / TEMP_DB).exists() or not (task_dir / CAPTURE_JSON).exists():
            export_capture(
                task_dir / TEMP_DB,
                task_dir / CAPTURE_JSON,
                note=f"exported by the driver after worker {worker_id} was lost ({reason})",
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


class StopFlag:
    """SIGINT/SIGTERM to the driver ask for an orderly stop instead of a KeyboardInterrupt anywhere."""

    def __init__(self) -> None:
        self.set = False
        self._old: dict[int, Any] = {}

    def __enter__(self) -> StopFlag:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum: int, frame: object) -> None:
        self.set = True

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


@dataclass
class Slot:
    spec: WorkerSpec
    handle: Any = None
    restarts: int = 0
    finished: bool = False  # exited cleanly (queue empty) or out of restarts
    stage: tuple[str | None, float] = (None, 0.0)  # (stage, first seen at) for launch-stuck detection


class Supervisor:
    def __init__(
        self,
        driver: Driver,
        backend: Backend,
        specs: list[WorkerSpec],
        *,
        task_timeout_s: float,
        policy: Policy,
        progress: Progress,
        events: Events,
    ) -> None:
        self.driver, self.backend, self.q = driver, backend, driver.q
        self.slots = [Slot(spec) for spec in specs]
        self.timeout, self.policy, self.progress, self.events = task_timeout_s, policy, progress, events
        self._polled = self._resumed = time.time()
        self._budget_said = False

    def _start(self, slot: Slot) -> None:
        slot.spec = replace(slot.spec, restarts=slot.restarts)
        self.driver.admit(slot.spec.worker_id, slot.restarts)
        slot.handle = self.backend.start(slot.spec)
        slot.stage = (None, time.time())
        pid = getattr(getattr(slot.handle, "proc", None), "pid", None)
        self.events.write(
            "worker_start",
            worker=slot.spec.worker_id,
            backend=self.backend.name,
            pid=pid,
            restarts=slot.restarts,
        )

    def _wait_exit(self, slot: Slot, timeout_s: float) -> Exit | None:
        deadline = time.time() + timeout_s
        while (ex := self.backend.exit_status(slot.handle)) is None and time.time() < deadline:
            time.sleep(0.1)
        return ex

    def _end(self, slot: Slot, status: str, reason: str, ex: Exit | None) -> list[str]:
        """The worker is gone (or made to go): refuse it, place its leftovers, record its tasks."""
        wid = slot.spec.worker_id
        self.driver.retire(wid)
        self.backend.stop(slot.handle, kill=True)  # with its browser, even if the worker itself is gone
        if ex is None:
            ex = self._wait_exit(slot, 15.0)
        self.events.write(
            "worker_exit",
            worker=wid,
            restarts=slot.restarts,
            code=ex.code if ex else None,
            reason=ex.reason if ex else "no exit status",
            node=ex.where if ex else None,
            leftover_bytes=len(ex.leftovers or b"") if ex else 0,
        )
        if ex is not None and ex.leftovers:
            self.driver.accept_leftovers(wid, ex.leftovers)
        done = salvage(self.q, self.driver.tasks, wid, status, reason, self.events)
        if self.driver.spend is not None:  # what a lost task recorded counts against the run's cap
            with self.driver.lock:
                for tid in done:
                    if (res := read_result(self.q.out_dir / tid)) is not None:
                        self.driver.spend.record(tid, res)
        return done

    def _lost(self, slot: Slot, reason: str, ex: Exit | None = None) -> None:
        """Record its tasks, then restart it if budget and work remain."""
        wid = slot.spec.worker_id
        done = self._end(slot, "worker_lost", f"worker {wid} {reason}", ex)
        self.events.write("worker_lost", worker=wid, reason=reason, tasks=done)
        self.progress.note(f"worker {wid} {reason}; recorded {', '.join(done) or 'no task'} as worker_lost")
        if self.q.counts()["pending"] == 0:
            slot.finished = True
        elif slot.restarts >= self.policy.max_restarts:
            slot.finished = True
            self.progress.note(
                f"worker {wid} will not be restarted again ({self.policy.max_restarts} restarts used)"
            )
        else:
            slot.restarts += 1
            self.progress.note(f"restarting worker {wid} ({slot.restarts}/{self.policy.max_restarts})")
            self._start(slot)

    def _check(self, slot: Slot, rows: dict[str, dict[str, Any]], now: float) -> None:
        ex = self.backend.exit_status(slot.handle)
        if ex is not None:
            if ex.code == EXIT_OK:
                slot.finished = True
                # A clean exit still cannot leave a claimed task behind.
                self._end(slot, "worker_lost", "worker exited mid-task", ex)
            else:
                self._lost(slot, ex.reason, ex)
            return
        row = rows.get(slot.spec.worker_id)
        if row is None or row.get("restarts") != slot.restarts:
            # Not registered yet (starting and importing can take a while on a loaded machine,
            # a Ray actor may wait for a node): only the launch limit applies, from the start.
            if now - slot.stage[1] > self.policy.launch_s:
                self._lost(slot, f"did not start within {self.policy.launch_s:g} s and was killed")
            return
        if row.get("stage") != slot.stage[0]:
            slot.stage = (row.get("stage"), now)
        reason = stuck_reason(row, self.policy, self.timeout, slot.stage[1], now)
        if reason:
            self._lost(slot, f"was stuck ({reason}) and was killed")

    def run(self) -> bool:
        """Run the workers until the queue is drained. Returns True when stopped by Ctrl-C."""
        interrupted = False
        try:
            with StopFlag() as stop:
                for slot in self.slots:
                    self._start(slot)
                while not all(s.finished for s in self.slots):
                    if stop.set:
                        interrupted = True
                        break
                    try:
                        self._poll()
                    except (QueueError, sqlite3.Error) as e:
                        self._stop_broken(str(e) if isinstance(e, QueueError) else f"the queue failed: {e}")
                    time.sleep(self.policy.poll_s)
                if interrupted:
                    self._stop_all()
                self.progress.update(self.q)
        finally:
            self.backend.close()  # never leave a worker or its browser behind
        return interrupted

    def _poll(self) -> None:
        self.q.check_intact()
        if self.driver.broken:  # a channel request met a failing queue first
            raise QueueError(self.driver.broken)
        rows = {w["worker_id"]: w for w in self.q.workers()}
        now = time.time()
        if now - self._polled > self.policy.stall_s / 2:
            # The driver itself was stopped (SIGSTOP, a suspended machine): every beat looks
            # stale although no worker is stuck. Judge them again from now.
            self._resumed = now
        self._polled = now
        for wid, row in rows.items():  # a beat that reached the driver counts, queue locked or not
            row["heartbeat_at"] = max(
                row.get("heartbeat_at") or 0, self.driver.beats.get(wid, 0), self._resumed
            )
        for slot in self.slots:
            if not slot.finished:
                self._check(slot, rows, now)
        self.progress.update(self.q)
        spend = self.driver.spend
        if spend is not None and spend.stopped is not None and not self._budget_said:
            self._budget_said = True  # said as it happens; the run's end says how many did not start
            self.progress.note(f"{spend.stopped}: no further task starts")

    def _stop_broken(self, reason: str) -> None:
        """The queue cannot be trusted: stop every worker without touching it, then raise."""
        self.driver.mark_broken(reason)  # every request is refused: workers record `interrupted` and exit
        self.events.write("queue_broken", reason=reason)
        deadline = time.time() + self.policy.stop_grace_s
        for s in self.slots:
            if s.handle is not None:
                self._wait_exit(s, max(0.1, deadline - time.time()))
        self.backend.close()
        for tid in sorted(self.q.started_by_ledger()):  # the ledger, not the failing queue
            task_dir = self.q.out_dir / tid
            res = read_result(task_dir)
            if res is not None and res.status not in NON_FINAL:
                continue
            write_result(
                task_dir,
                failure_result(
                    self.driver.tasks.get(tid),
                    tid,
                    "worker_lost",
                    f"the run stopped mid-task because {reason}; tasks are never retried once started",
                ),
            )
            if (task_dir / TEMP_DB).exists():
                export_capture(
                    task_dir / TEMP_DB,
                    task_dir / CAPTURE_JSON,
                    note="exported by the driver after the run's queue failed",
                )
            self.events.write("task_lost", task_id=tid, status="worker_lost", reason=reason)
        raise QueueError(reason)

    def _stop_all(self) -> None:
        """Ctrl-C: ask every worker to stop (they record 'interrupted'), then make sure."""
        self.events.write("interrupt")
        self.driver.request_stop()  # reaches workers on any node with their next heartbeat
        live = [s for s in self.slots if s.handle is not None and self.backend.exit_status(s.handle) is None]
        for s in live:
            self.backend.stop(s.handle, kill=False)
        deadline = time.time() + self.policy.stop_grace_s
        for s in live:
            self._wait_exit(s, max(0.1, deadline - time.time()))
        for s in self.slots:
            if s.handle is None or s.finished:  # already ended and recorded
                continue
            ex = self.backend.exit_status(s.handle)
            self._end(s, "interrupted", "the run was stopped (Ctrl-C)", ex)
