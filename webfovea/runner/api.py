"""`run_tasks`: run many tasks on many browsers into one output folder, resumably.

Output folder layout:
  queue.sqlite       the shared queue (tasks, workers, fingerprint of the task file)
  tasks.json         the tasks as given (Task.model_dump())
  run.json           model, profile, disabled components, workers, backend, start/end (+ earlier runs)
  runner.log.jsonl   the parent's events (worker starts, losses, restarts, interrupts)
  <task_id>/         one folder per task (result.json, trajectory.jsonl, screenshots, capture.json)
  .interrupted/      folders of tasks stopped by Ctrl-C, set aside when the run is resumed
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.config import ALL_COMPONENTS, HarnessConfig
from webfovea.record.files import now_iso
from webfovea.record.schema import TaskResult
from webfovea.runner.errors import RunError
from webfovea.runner.progress import Progress
from webfovea.runner.queue import TaskQueue, validate_tasks
from webfovea.runner.supervisor import Policy, load_results
from webfovea.runner.worker import DEFAULT_TASK_FN, WorkerSpec
from webfovea.task import Task

BACKENDS = ("local", "ray")



@dataclass
class RunOutcome:
    out_dir: Path
    results: dict[str, TaskResult] = field(default_factory=dict)
    complete: bool = False  # every task has a final result
    interrupted: bool = False  # stopped by Ctrl-C; re-run into the same folder to resume
    counts: dict[str, int] = field(default_factory=dict)  # what the queue found at start


def check_cdp_endpoints(urls: list[str], timeout_s: float = 5.0) -> None:
    """Every --cdp-url must answer the DevTools version query before any task starts."""
    import httpx

    for url in urls:
        probe = url.rstrip("/") + "/json/version"
        if url.startswith(("ws://", "wss://")):
            continue  # a websocket endpoint has no HTTP probe; the worker's connect will tell
        try:
            r = httpx.get(probe, timeout=timeout_s)
            r.raise_for_status()
            r.json()
        except Exception as e:
            raise RunError(
                f"the browser at --cdp-url {url} does not answer ({type(e).__name__}: {e}). "
                "Start Chromium with --remote-debugging-port=PORT and pass http://127.0.0.1:PORT"
            ) from None


@contextlib.contextmanager
def _folder_lock(out_dir: Path) -> Iterator[None]:
    """One run per output folder at a time: two would both think they own the claimed tasks."""
    fd = os.open(out_dir / ".run.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunError(f"another run is writing into {out_dir}; wait for it or use another folder") from None
        yield
    finally:
        os.close(fd)


def _write_run_json(out_dir: Path, info: dict[str, Any]) -> None:
    path = out_dir / "run.json"
    previous: list[dict[str, Any]] = []
    if path.exists():
        with contextlib.suppress(ValueError, OSError):
            old = json.loads(path.read_text())
            previous = old.pop("previous_runs", []) + [old]
    tmp = path.with_name(".run.json.tmp")
    tmp.write_text(json.dumps({**info, "previous_runs": previous} if previous else info, indent=2))
    tmp.replace(path)


def run_tasks(
    tasks: list[Task], out_dir: Path, *, model: str, config: HarnessConfig, workers: int = 1,
    cdp_urls: list[str] | None = None, backend: str = "local", ray_address: str | None = None,
    task_timeout_s: float | None = None, model_options: dict[str, Any] | None = None,
    show_progress: bool = True, policy: Policy | None = None, _task_fn: str = DEFAULT_TASK_FN,
) -> RunOutcome:
    """Run every task of `tasks` once, `workers` browsers at a time, into `out_dir`.

    Resumable: tasks with a final result.json are skipped; a task started by a run that died
    is recorded `worker_lost` and not run again; tasks stopped by Ctrl-C run again.
    `task_timeout_s` defaults to the config's budget plus two minutes.
    `_task_fn` ("module:function") replaces webfovea.agent.run_task — for the runner's own tests.
    """
    if backend not in BACKENDS:
        raise RunError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if workers < 1:
        raise RunError("workers must be at least 1")
    if not tasks:
        raise RunError("the task list is empty")
    try:
        validate_tasks(tasks)
    except ValueError as e:
        raise RunError(str(e)) from None
    if cdp_urls:
        if workers > len(cdp_urls):
            raise RunError(
                f"{workers} workers but {len(cdp_urls)} --cdp-url browser(s): each worker needs its own browser"
            )
        check_cdp_endpoints(cdp_urls[:workers])
    timeout = task_timeout_s if task_timeout_s is not None else config.max_seconds + 120.0
    policy = policy or Policy()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)

    with _folder_lock(out_dir):
        try:
            q = TaskQueue(out_dir)
            try:
                counts = q.prepare(tasks)
            finally:
                q.close()
        except RuntimeError as e:
            raise RunError(str(e)) from None
        (out_dir / "tasks.json").write_text(
            json.dumps([t.model_dump(mode="json") for t in tasks], indent=2, ensure_ascii=False)
        )
        info: dict[str, Any] = {
            "model": model, "profile": config.profile,
            "disabled": sorted(c.value for c in ALL_COMPONENTS - config.components),
            "workers": workers, "backend": backend, "ray_address": ray_address,
            "cdp_urls": cdp_urls[:workers] if cdp_urls else None, "task_timeout_s": timeout,
            "config": config.model_dump(mode="json"), "tasks": len(tasks), "queue_at_start": counts,
            "started_at": now_iso(), "ended_at": None,
        }
        _write_run_json(out_dir, info)
        specs = [
            WorkerSpec(
                worker_id=f"w{i}", out_dir=str(out_dir), model=model, config=config,
                cdp_url=cdp_urls[i] if cdp_urls else None, task_timeout_s=timeout,
                model_options=model_options, task_fn=_task_fn,
            )
            for i in range(workers)
        ]
        interrupted = False
        if counts["pending"]:
            with Progress(tasks, out_dir, enabled=show_progress) as progress:
                if backend == "local":
                    from webfovea.runner.local import run_local

                    interrupted = run_local(
                        out_dir, tasks, specs, task_timeout_s=timeout, policy=policy, progress=progress
                    )
                else:
                    from webfovea.runner.ray_backend import run_ray

                    interrupted = run_ray(
                        out_dir, tasks, specs, task_timeout_s=timeout, policy=policy, progress=progress,
                        address=ray_address,
                    )
        info["ended_at"] = now_iso()
        info["interrupted"] = interrupted
        path = out_dir / "run.json"
        with contextlib.suppress(ValueError, OSError):
            current = json.loads(path.read_text())
            current.update(ended_at=info["ended_at"], interrupted=interrupted)
            path.write_text(json.dumps(current, indent=2))
    results = load_results(out_dir, tasks)
    complete = all(tid in results and results[tid].status != "interrupted" for tid in (t.task_id for t in tasks))
    return RunOutcome(out_dir=out_dir, results=results, complete=complete, interrupted=interrupted, counts=counts)
