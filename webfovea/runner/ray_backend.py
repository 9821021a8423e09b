"""`--backend ray`: the same workers as Ray actors, each owning its browser.

Same queue semantics (the SQLite queue in the output folder), same recovery and the same
output layout as the local backend. The queue and the task folders are plain files, so on
more than one node the output folder must be on a filesystem every node mounts at the same
path (NFS or similar; SQLite's locking must work on it). Ray is an optional extra:
`pip install 'webfovea[ray]'`.

Recovery: an actor that dies (or that the driver kills because it is stuck) is restarted by
Ray (`max_restarts`, at most 2); the driver records the tasks it had claimed as
`worker_lost` and starts the worker loop again on the restarted actor. Ctrl-C on the driver
sets a stop flag in the queue; workers see it with their next heartbeat and record
`interrupted`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from webfovea.runner.errors import RunError
from webfovea.runner.local import StopFlag
from webfovea.runner.progress import Progress
from webfovea.runner.queue import TaskQueue
from webfovea.runner.supervisor import Events, Policy, salvage, stuck_reason
from webfovea.runner.worker import WorkerSpec, run_worker
from webfovea.task import Task

INSTALL_HINT = "the Ray backend needs Ray: pip install 'webfovea[ray]' (or use --backend local)"


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RunError(INSTALL_HINT) from None
    return ray


class _WorkerActor:
    """Body of the Ray actor (wrapped by ray.remote at run time, so importing needs no Ray)."""

    def __init__(self, spec: WorkerSpec) -> None:
        self.spec = spec

    def run(self, restarts: int) -> int:
        return asyncio.run(run_worker(replace(self.spec, restarts=restarts)))


def run_ray(
    out_dir: Path, tasks: list[Task], specs: list[WorkerSpec], *, task_timeout_s: float, policy: Policy,
    progress: Progress, address: str | None = None, cpus_per_worker: float = 1.0,
) -> bool:
    """Run the workers as Ray actors until the queue is drained. Returns True on Ctrl-C."""
    ray = import_ray()
    from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError

    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
        except Exception as e:
                raise RunError(f"cannot start or reach Ray (address {address or 'local'}): {e}") from None
    actor_cls = ray.remote(max_restarts=policy.max_restarts, max_task_retries=0, num_cpus=cpus_per_worker)(
        _WorkerActor
    )
    q = TaskQueue(out_dir)
    events = Events(out_dir)
    by_id = {t.task_id: t for t in tasks}
    actors = [actor_cls.remote(spec) for spec in specs]
    restarts = [0] * len(specs)
    refs: dict[int, Any] = {}
    stage_seen: dict[int, tuple[str | None, float]] = {}
    for i in range(len(specs)):
        refs[i] = actors[i].run.remote(0)
        stage_seen[i] = (None, time.time())
        events.write("worker_start", worker=specs[i].worker_id, backend="ray", restarts=0)

    def lost(i: int, reason: str) -> None:
        wid = specs[i].worker_id
        done = salvage(q, by_id, wid, "worker_lost", f"worker {wid} {reason}", events)
        events.write("worker_lost", worker=wid, reason=reason, tasks=done)
        progress.note(f"worker {wid} {reason}; recorded {', '.join(done) or 'no task'} as worker_lost")
        del refs[i]
        if q.counts()["pending"] and restarts[i] < policy.max_restarts:
            restarts[i] += 1
            progress.note(f"restarting worker {wid} ({restarts[i]}/{policy.max_restarts})")
            refs[i] = actors[i].run.remote(restarts[i])  # queued until Ray has restarted the actor
            stage_seen[i] = (None, time.time())
            events.write("worker_start", worker=wid, backend="ray", restarts=restarts[i])

    interrupted = False
    try:
        with StopFlag() as stop:
            while refs:
                if stop.set:
                    interrupted = True
                    break
                ready, _ = ray.wait(list(refs.values()), num_returns=len(refs), timeout=policy.poll_s)
                for i, ref in list(refs.items()):
                    if ref not in ready:
                        continue
                    try:
                        code = ray.get(ref)
                    except (RayActorError, RayTaskError) as e:
                        lost(i, f"died ({type(e).__name__})")
                        continue
                    if code == 0:
                        del refs[i]
                        salvage(q, by_id, specs[i].worker_id, "worker_lost", "worker exited mid-task", events)
                    else:
                        lost(i, f"exited with code {code}")
                rows = {w["worker_id"]: w for w in q.workers()}
                now = time.time()
                for i in list(refs):
                    row = rows.get(specs[i].worker_id)
                    if row is None or row.get("restarts") != restarts[i]:
                        if now - stage_seen[i][1] > policy.launch_s:
                            ray.kill(actors[i], no_restart=False)
                        continue
                    if row.get("stage") != stage_seen[i][0]:
                        stage_seen[i] = (row.get("stage"), now)
                    reason = stuck_reason(row, policy, task_timeout_s, stage_seen[i][1], now)
                    if reason:
                        events.write("worker_killed", worker=specs[i].worker_id, reason=reason)
                        ray.kill(actors[i], no_restart=False)  # its pending call fails -> lost()
                progress.update(q)
            if interrupted:
                events.write("interrupt")
                q.request_stop()
                try:
                    ray.get(list(refs.values()), timeout=policy.stop_grace_s)
                except (GetTimeoutError, RayActorError, RayTaskError):
                    pass
                for spec in specs:
                    salvage(q, by_id, spec.worker_id, "interrupted", "the run was stopped (Ctrl-C)", events)
            progress.update(q)
    finally:
        for a in actors:
            try:
                ray.kill(a, no_restart=True)
            except Exception:
                pass
        q.close()
        if started_here:
            ray.shutdown()
    return interrupted
