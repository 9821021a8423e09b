"""The default backend: N worker processes (multiprocessing 'spawn') watched by this process."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.process import BaseProcess
from pathlib import Path

from webfovea.runner.progress import Progress
from webfovea.runner.queue import TaskQueue
from webfovea.runner.supervisor import Events, Policy, salvage, stuck_reason
from webfovea.runner.worker import EXIT_OK, WorkerSpec, worker_process_main
from webfovea.task import Task


@dataclass
class Slot:
    spec: WorkerSpec
    proc: BaseProcess | None = None
    restarts: int = 0
    finished: bool = False  # exited cleanly (queue empty) or out of restarts
    stage: tuple[str | None, float] = (None, 0.0)  # (stage, first seen at) for launch-stuck detection


def kill_group(pid: int) -> None:
    """SIGKILL a worker with its browser (the worker leads its own process group)."""
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill()


class StopFlag:
    """SIGINT/SIGTERM to the parent ask for an orderly stop instead of a KeyboardInterrupt anywhere."""

    def __init__(self) -> None:
        self.set = False
        self._old: dict[int, object] = {}

    def __enter__(self) -> StopFlag:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum: int, frame: object) -> None:
        self.set = True

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)  # type: ignore[arg-type]


def run_local(
    out_dir: Path, tasks: list[Task], specs: list[WorkerSpec], *, task_timeout_s: float,
    policy: Policy, progress: Progress,
) -> bool:
    """Run the workers until the queue is drained. Returns True when stopped by Ctrl-C."""
    ctx = mp.get_context("spawn")
    q = TaskQueue(out_dir)
    events = Events(out_dir)
    by_id = {t.task_id: t for t in tasks}
    slots = [Slot(spec) for spec in specs]

    def start(slot: Slot) -> None:
        slot.spec = replace(slot.spec, restarts=slot.restarts)
        slot.proc = ctx.Process(target=worker_process_main, args=(slot.spec,), name=slot.spec.worker_id)
        slot.proc.start()
        slot.stage = (None, time.time())
        events.write("worker_start", worker=slot.spec.worker_id, pid=slot.proc.pid, restarts=slot.restarts)

    def lost(slot: Slot, reason: str) -> None:
        """The worker is gone: record its tasks, then restart it if budget and work remain."""
        assert slot.proc is not None
        kill_group(slot.proc.pid or 0)
        slot.proc.join(5)
        wid = slot.spec.worker_id
        done = salvage(q, by_id, wid, "worker_lost", f"worker {wid} {reason}", events)
        events.write("worker_lost", worker=wid, reason=reason, tasks=done)
        progress.note(f"worker {wid} {reason}; recorded {', '.join(done) or 'no task'} as worker_lost")
        if q.counts()["pending"] == 0:
            slot.finished = True
        elif slot.restarts >= policy.max_restarts:
            slot.finished = True
            progress.note(f"worker {wid} will not be restarted again ({policy.max_restarts} restarts used)")
        else:
            slot.restarts += 1
            progress.note(f"restarting worker {wid} ({slot.restarts}/{policy.max_restarts})")
            start(slot)

    interrupted = False
    try:
        with StopFlag() as stop:
            for slot in slots:
                start(slot)
            while not all(s.finished for s in slots):
                if stop.set:
                    interrupted = True
                    break
                rows = {w["worker_id"]: w for w in q.workers()}
                now = time.time()
                for slot in slots:
                    if slot.finished or slot.proc is None:
                        continue
                    code = slot.proc.exitcode
                    if code is not None:
                        if code == EXIT_OK:
                            slot.finished = True
                            # A clean exit still cannot leave a claimed task behind.
                            salvage(q, by_id, slot.spec.worker_id, "worker_lost", "worker exited mid-task", events)
                        else:
                            lost(slot, f"exited with code {code}")
                        continue
                    row = rows.get(slot.spec.worker_id)
                    if row is None or row.get("pid") != slot.proc.pid:
                        # Not registered yet (spawning and importing can take a while on a
                        # loaded machine): only the launch limit applies, from process start.
                        if now - slot.stage[1] > policy.launch_s:
                            lost(slot, f"did not start within {policy.launch_s:g} s and was killed")
                        continue
                    if row.get("stage") != slot.stage[0]:
                        slot.stage = (row.get("stage"), now)
                    reason = stuck_reason(row, policy, task_timeout_s, slot.stage[1], now)
                    if reason:
                        lost(slot, f"was stuck ({reason}) and was killed")
                progress.update(q)
                time.sleep(policy.poll_s)
            if interrupted:
                _stop_all(slots, q, by_id, policy, events)
            progress.update(q)
    finally:
        for slot in slots:  # never leave a worker or its browser behind
            if slot.proc is not None and slot.proc.is_alive():
                kill_group(slot.proc.pid or 0)
                slot.proc.join(5)
        q.close()
    return interrupted


def _stop_all(slots: list[Slot], q: TaskQueue, by_id: dict[str, Task], policy: Policy, events: Events) -> None:
    """Ctrl-C: ask every worker to stop (they record 'interrupted'), then make sure."""
    events.write("interrupt")
    q.request_stop()  # also reaches workers that missed the signal
    alive = [s for s in slots if s.proc is not None and s.proc.is_alive()]
    for s in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(s.proc.pid or 0, signal.SIGINT)  # type: ignore[union-attr]
    deadline = time.time() + policy.stop_grace_s
    for s in alive:
        s.proc.join(max(0.1, deadline - time.time()))  # type: ignore[union-attr]
    for s in slots:
        if s.proc is not None:
            kill_group(s.proc.pid or 0)  # the browser too, if the worker left it
            s.proc.join(5)
        salvage(q, by_id, s.spec.worker_id, "interrupted", "the run was stopped (Ctrl-C)", events)
