"""`run_tasks`: run many tasks on many browsers into one output folder, resumably.

Output folder layout:
  queue.sqlite       the queue (tasks, workers, fingerprint of the task file); only the driver opens it
  tasks.json         the tasks as given (Task.model_dump())
  run.json           model, profile, disabled components, workers, backend, start/end (+ earlier runs)
  runner.log.jsonl   the driver's events (worker starts, losses, restarts, uploads, interrupts)
  <task_id>/         one folder per task (result.json, trajectory.jsonl, screenshots, capture.json)
  .interrupted/      folders of tasks stopped by Ctrl-C, set aside when the run is resumed
  .started.jsonl     the driver's claim ledger: a started task is never run again
  .earlier/<n>/      an earlier run set aside by `fresh`
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import pickle
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from webfovea.agent import run_task as agent_run_task
from webfovea.config import HarnessConfig
from webfovea.guardrails.spend import SpendCap
from webfovea.guardrails.verifier import off_for_spec
from webfovea.models.routes import recorded
from webfovea.record import mark_run_ended, new_run_info, write_run_info, write_run_tasks
from webfovea.record.schema import TaskResult
from webfovea.runner.backends import Backend
from webfovea.runner.channel import ChannelServer, Driver
from webfovea.runner.errors import RunError
from webfovea.runner.identity import code_version, run_identity
from webfovea.runner.progress import Progress
from webfovea.runner.queue import QUEUE_FILE, QueueError, TaskQueue, validate_tasks
from webfovea.runner.spend import RunSpend
from webfovea.runner.supervisor import Events, Policy, Supervisor, load_results
from webfovea.runner.worker import TaskFn, WorkerSpec
from webfovea.task import Task

BACKENDS = ("local", "ray")


@dataclass
class RunOptions:
    """How to run a task list (everything but the tasks and the output folder)."""

    model: str
    config: HarnessConfig
    workers: int = 1
    cdp_urls: list[str] | None = None  # one browser endpoint per worker instead of launching one
    backend: str = "local"  # "local" or "ray"
    ray_address: str | None = None
    task_timeout_s: float | None = None  # default: the config's budget plus two minutes
    model_options: dict[str, Any] | None = None
    show_progress: bool = True
    policy: Policy = field(default_factory=Policy)
    # A module-level async function with webfovea.agent.run_task's signature (it crosses a
    # process or Ray boundary by reference). Tests put a stand-in agent here.
    task_fn: TaskFn = agent_run_task
    # Where workers write task folders when they cannot write into the output folder: each
    # worker uses <work_dir>/<worker_id>/ and uploads every finished folder to the driver.
    # Ray: defaults to a temp dir on each node. Local: None = write into the output folder.
    work_dir: Path | None = None
    # Loopback prefixes given per start (the proving ground's free ports) -> stable names, so a
    # resume on new ports is the same run (runner/identity.py).
    url_aliases: dict[str, str] | None = None
    # Set the earlier run in the output folder aside (into .earlier/<n>/) and start again,
    # instead of refusing a resume whose model, configuration or tasks changed.
    fresh: bool = False
    # Judges a finished task by its backend state for the progress line (a stateful environment's
    # obligations): (task, result) -> passed, or None when the answer decides. Runs in the driver.
    state_passed: Callable[[Task, TaskResult], bool | None] | None = None
    # The run's spending cap (tokens, money): no task starts once the tasks' recorded spend
    # reaches it (runner/spend.py); the tasks not started stay pending. Each task's own cap is
    # the config's (max_tokens, max_cost).
    run_cap: SpendCap | None = None
    headed: bool = False  # launched browsers show their window


@dataclass
class RunOutcome:
    out_dir: Path
    results: dict[str, TaskResult] = field(default_factory=dict)
    complete: bool = False  # every task has a final result
    interrupted: bool = False  # stopped by Ctrl-C; re-run into the same folder to resume
    counts: dict[str, int] = field(default_factory=dict)  # what the queue found at start
    # The run's cap and spend (RunSpend.to_json), with `stopped` and `not_started` when the cap
    # stopped the run; None without a run cap.
    budget: dict[str, Any] | None = None


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
            raise RunError(
                f"another run is writing into {out_dir}; wait for it or use another folder"
            ) from None
        yield
    finally:
        os.close(fd)


def _set_aside_earlier_run(out_dir: Path) -> Path | None:
    """`fresh`: move everything of an earlier run into `.earlier/<n>/` (nothing is deleted)."""
    if not (out_dir / QUEUE_FILE).exists():
        return None  # no earlier run here: nothing to set aside
    root = out_dir / ".earlier"
    n = 1
    while (root / str(n)).exists():
        n += 1
    dest = root / str(n)
    dest.mkdir(parents=True)
    for entry in sorted(out_dir.iterdir()):
        if entry.name not in (".earlier", ".run.lock"):
            entry.rename(dest / entry.name)
    return dest


def _make_backend(options: RunOptions) -> Backend:
    if options.backend == "ray":
        from webfovea.runner.backends.ray import RayBackend

        return RayBackend(options.ray_address)
    from webfovea.runner.backends.local import LocalBackend

    return LocalBackend(shares_filesystem=options.work_dir is None)


def _check_options(tasks: list[Task], out_dir: Path, options: RunOptions) -> None:
    if options.backend not in BACKENDS:
        raise RunError(f"unknown backend {options.backend!r}; choose one of: {', '.join(BACKENDS)}")
    if options.workers < 1:
        raise RunError("workers must be at least 1")
    if not tasks:
        raise RunError("the task list is empty")
    if out_dir.exists() and not out_dir.is_dir():
        raise RunError(f"the output folder {out_dir} is a file; give a folder path")
    try:
        validate_tasks(tasks)
    except (ValueError, RuntimeError) as e:  # QueueError is a RuntimeError
        raise RunError(str(e)) from None
    if options.work_dir is not None:
        work = Path(options.work_dir).resolve()
        if work == out_dir or out_dir in work.parents:
            raise RunError("work_dir must be outside the output folder (workers upload into it)")
    try:
        pickle.dumps(options.task_fn)
    except Exception:
        raise RunError("task_fn must be a module-level function (it is sent to worker processes)") from None
    if options.cdp_urls:
        if options.workers > len(options.cdp_urls):
            raise RunError(
                f"{options.workers} workers but {len(options.cdp_urls)} --cdp-url browser(s): "
                "each worker needs its own browser"
            )
        check_cdp_endpoints(options.cdp_urls[: options.workers])


def run_tasks(tasks: list[Task], out_dir: Path, options: RunOptions) -> RunOutcome:
    """Run every task of `tasks` once, `options.workers` browsers at a time, into `out_dir`.

    Resumable: tasks with a final result.json are skipped; a task started by a run that died
    is recorded `worker_lost` and not run again; tasks stopped by Ctrl-C run again.
    """
    out_dir = Path(out_dir).resolve()
    _check_options(tasks, out_dir, options)
    try:
        return _run(tasks, out_dir, options)
    except OSError as e:  # a full disk, a read-only --out, a file made immutable mid-run
        with contextlib.suppress(Exception):
            mark_run_ended(out_dir, interrupted=True)  # where the disk still takes it
        raise RunError(disk_error(e, out_dir)) from None


def disk_error(e: OSError, out_dir: Path) -> str:
    """One line for a write the disk refused: what, where, and what to do."""
    why = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is spent",
        errno.EROFS: "the file system is read-only",
        errno.EPERM: "the file is not writable (immutable, or not permitted)",
        errno.EACCES: "permission denied",
    }.get(e.errno or 0, e.strerror or type(e).__name__)
    where = f" ({e.filename})" if e.filename else ""
    return (
        f"cannot write the run's files in {out_dir}: {why}{where}. The run stopped; results already "
        "written are kept. Free space or fix the folder, then re-run the same command to finish the rest."
    )


def _run(tasks: list[Task], out_dir: Path, options: RunOptions) -> RunOutcome:
    config, workers, cdp_urls = options.config, options.workers, options.cdp_urls
    timeout = options.task_timeout_s if options.task_timeout_s is not None else config.max_seconds + 120.0
    out_dir.mkdir(parents=True, exist_ok=True)

    with _folder_lock(out_dir):
        if options.fresh:
            _set_aside_earlier_run(out_dir)
        try:
            q = TaskQueue(out_dir)
        except RuntimeError as e:
            raise RunError(str(e)) from None
        try:
            try:
                counts = q.prepare(tasks, run_identity(options.model, config, tasks, options.url_aliases))
            except RuntimeError as e:
                raise RunError(str(e)) from None
            # No more browsers than tasks left to run: 12 workers for 3 tasks would start 9 idle browsers.
            workers = min(workers, max(1, counts["pending"]))
            options = replace(options, workers=workers)
            write_run_tasks(out_dir, tasks)
            write_run_info(
                out_dir,
                new_run_info(
                    model=options.model,
                    config=config,
                    routes=recorded(
                        options.model, config, verifier_off=off_for_spec(config, options.model) is not None
                    ),
                    workers=workers,
                    backend=options.backend,
                    ray_address=options.ray_address,
                    cdp_urls=cdp_urls[:workers] if cdp_urls else None,
                    task_timeout_s=timeout,
                    tasks=len(tasks),
                    queue_at_start=counts,
                    verifier_off=off_for_spec(config, options.model),
                    code=code_version(),
                    budget=options.run_cap.to_json() if options.run_cap is not None else None,
                ),
            )
            interrupted = False
            spend = RunSpend(options.run_cap, out_dir, tasks) if options.run_cap is not None else None
            if counts["pending"] and (spend is None or spend.reached() is None):
                try:
                    interrupted = _supervise(tasks, out_dir, q, options, timeout, spend)
                except QueueError as e:
                    mark_run_ended(out_dir, interrupted=True)
                    kept = sum(r.status != "interrupted" for r in load_results(out_dir, tasks).values())
                    raise RunError(
                        f"{e}; the run stopped. {kept} task(s) with a final result are kept in {out_dir}. "
                        "Move queue.sqlite away and re-run the same command to finish the rest (tasks "
                        "already started are not run again), or use a new output folder."
                    ) from None
            budget = spend.to_json(not_started=q.counts()["pending"]) if spend is not None else None
            mark_run_ended(out_dir, interrupted=interrupted, budget=budget)
        finally:
            q.close()
    results = load_results(out_dir, tasks)
    complete = all(
        tid in results and results[tid].status != "interrupted" for tid in (t.task_id for t in tasks)
    )
    return RunOutcome(
        out_dir=out_dir,
        results=results,
        complete=complete,
        interrupted=interrupted,
        counts=counts,
        budget=budget,
    )


def _supervise(
    tasks: list[Task],
    out_dir: Path,
    q: TaskQueue,
    options: RunOptions,
    timeout: float,
    spend: RunSpend | None = None,
) -> bool:
    """Serve the channel, start the backend's workers, run the loop. True when stopped by Ctrl-C."""
    events = Events(out_dir)
    driver = Driver(q, tasks, events, spend)
    token = secrets.token_urlsafe(32)
    work_root = Path(options.work_dir).resolve() if options.work_dir else None
    backend = _make_backend(options)
    try:
        shared = backend.shares_filesystem
        with ChannelServer(driver, backend.channel_host, token) as channel:
            specs = [
                WorkerSpec(
                    worker_id=f"w{i}",
                    model=options.model,
                    config=options.config,
                    driver_url=channel.url,
                    token=token,
                    upload=not shared,
                    work_dir=str(out_dir if shared else (work_root / f"w{i}" if work_root else "")),
                    cdp_url=options.cdp_urls[i] if options.cdp_urls else None,
                    task_timeout_s=timeout,
                    model_options=options.model_options,
                    task_fn=options.task_fn,
                    headed=options.headed,
                )
                for i in range(options.workers)
            ]
            with Progress(
                tasks, out_dir, enabled=options.show_progress, state_passed=options.state_passed
            ) as progress:
                sup = Supervisor(
                    driver,
                    backend,
                    specs,
                    task_timeout_s=timeout,
                    policy=options.policy,
                    progress=progress,
                    events=events,
                )
                return sup.run()
    finally:
        backend.close()
