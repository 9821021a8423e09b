"""One worker = one browser: claim a task, run it, record it, repeat until the queue is empty.

The same code runs in a multiprocessing child (local backend) and inside a Ray actor.
Recovery inside the worker (the parent handles what a worker cannot handle itself):
- before every task the browser is health-checked by a real round trip and rebuilt if dead;
- a per-task wall-clock limit (asyncio timeout around run_task) holds whatever the model
  or the page does; the task is then recorded as `timeout`;
- a browser/CDP connection lost mid-task makes that task a recorded `browser_error`;
- SIGINT/SIGTERM cancel the running task, which is recorded as `interrupted`.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.record.files import failure_result, now_iso, read_result, write_result
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.runner.queue import TaskQueue
from webfovea.task import Task

DEFAULT_TASK_FN = "webfovea.agent:run_task"
STARTS_FILE = ".runner_starts"  # one line per time the runner started this task (evidence: never twice)
_BROWSER_NAMES = frozenset(
    {"chromium", "chromium-browser", "chrome", "google-chrome", "headless_shell", "chrome-headless-shell"}
)
EXIT_OK, EXIT_INTERRUPTED, EXIT_NO_BROWSER = 0, 130, 3


@dataclass
class WorkerSpec:
    """Everything a worker needs; picklable so it crosses a spawn or a Ray boundary."""

    worker_id: str
    out_dir: str
    model: str
    config: HarnessConfig
    cdp_url: str | None = None
    task_timeout_s: float = 1900.0
    model_options: dict[str, Any] | None = None
    heartbeat_s: float = 1.0
    restarts: int = 0
    task_fn: str = DEFAULT_TASK_FN
    browser_attempts: int = 3
    extra: dict[str, Any] = field(default_factory=dict)


def load_task_fn(path: str) -> Callable[..., Awaitable[TaskResult]]:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def load_tasks(out_dir: Path) -> dict[str, Task]:
    return {t["task_id"]: Task.model_validate(t) for t in json.loads((out_dir / "tasks.json").read_text())}


def browser_pid_of(root_pid: int) -> int | None:
    """The main Chromium process among root_pid's descendants (the one without --type=)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    stack, found = [root_pid], []
    while stack:
        for c in children.get(stack.pop(0), []):
            stack.append(c)
            try:
                cmd = (Path("/proc") / str(c) / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            name = Path(cmd[0].decode(errors="replace")).name if cmd else ""
            # Exact names: chrome_crashpad_handler also lacks --type= and must not be taken.
            if name in _BROWSER_NAMES and not any(a.startswith(b"--type=") for a in cmd):
                found.append(c)
    # Breadth-first: the first match is the browser; later ones would be nested oddities.
    return found[0] if found else None


class Worker:
    def __init__(self, spec: WorkerSpec) -> None:
        self.spec = spec
        self.out = Path(spec.out_dir)
        self.q = TaskQueue(self.out)
        self.tasks = load_tasks(self.out)
        self.run_task = load_task_fn(spec.task_fn)
        self.session: BrowserSession | None = None
        self.on_stop: Callable[[], None] | None = None  # set by run_worker: cancels the worker

    async def _heartbeat(self) -> None:
        # Beats from the event loop itself: if the loop is blocked, beats stop and the parent acts.
        while True:
            with contextlib.suppress(Exception):
                self.q.heartbeat(self.spec.worker_id)
                if self.q.stop_requested() and self.on_stop is not None:
                    self.on_stop()
            await asyncio.sleep(self.spec.heartbeat_s)

    async def _open_browser(self) -> BrowserSession:
        self.q.heartbeat(self.spec.worker_id, stage="launching")
        if self.session is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.session.close(), 15)
            self.session = None
        cfg = self.spec.config
        viewport = (cfg.viewport_width, cfg.viewport_height)
        last: Exception | None = None
        for attempt in range(self.spec.browser_attempts):
            try:
                if self.spec.cdp_url:
                    s = await BrowserSession.connect(self.spec.cdp_url, viewport=viewport)
                else:
                    s = await BrowserSession.launch(viewport=viewport)
                if await s.healthy():
                    pid = None if self.spec.cdp_url else browser_pid_of(os.getpid())
                    self.q.heartbeat(self.spec.worker_id, stage="idle", browser_pid=pid)
                    return s
                await s.close()
                last = RuntimeError("the browser started but does not answer")
            except Exception as e:
                last = e
            await asyncio.sleep(min(2.0 * (attempt + 1), 5.0))
        raise BrowserUnavailable(f"worker {self.spec.worker_id}: no usable browser: {last}")

    async def run(self) -> int:
        hb = asyncio.create_task(self._heartbeat())
        try:
            while True:
                if self.session is None or not await self.session.healthy():
                    self.session = await self._open_browser()
                tid = self.q.claim(self.spec.worker_id)
                if tid is None:
                    return EXIT_OK
                await self._run_one(tid)
        except asyncio.CancelledError:
            return EXIT_INTERRUPTED
        except BrowserUnavailable as e:
            print(str(e), flush=True)
            return EXIT_NO_BROWSER
        finally:
            hb.cancel()
            with contextlib.suppress(Exception):
                self.q.heartbeat(self.spec.worker_id, stage="stopped", task_id=None)
            if self.session is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(self.session.close(), 15)
            self.q.close()

    async def _run_one(self, tid: str) -> None:
        task = self.tasks[tid]
        task_dir = self.out / tid
        task_dir.mkdir(parents=True, exist_ok=True)
        with (task_dir / STARTS_FILE).open("a") as f:
            f.write(json.dumps({"worker": self.spec.worker_id, "pid": os.getpid(), "at": now_iso()}) + "\n")
        started, t0 = now_iso(), time.monotonic()
        wid = self.spec.worker_id

        def on_step(rec: StepRecord) -> None:
            with contextlib.suppress(Exception):
                self.q.heartbeat(wid, stage=f"step {rec.step + 1}", step=rec.step + 1)

        common = {"started_at": started, "model": self.spec.model, "profile": self.spec.config.profile}
        try:
            result = await asyncio.wait_for(
                self.run_task(
                    task, task_dir, model=self.spec.model, config=self.spec.config, session=self.session,
                    model_options=self.spec.model_options, on_step=on_step,
                ),
                self.spec.task_timeout_s,
            )
        except TimeoutError:
            prior = read_result(task_dir)  # run_task saw the cancel and may have recorded progress
            extra: dict[str, Any] = {"steps": prior.steps, "usage": prior.usage} if prior else {}
            result = failure_result(
                task, tid, "timeout",
                f"the task's wall-clock limit of {self.spec.task_timeout_s:g} s was reached",
                seconds=round(time.monotonic() - t0, 2), **extra, **common,
            )
            write_result(task_dir, result)
        except asyncio.CancelledError:
            prior = read_result(task_dir)
            if prior is None or prior.status != "interrupted":
                write_result(task_dir, failure_result(
                    task, tid, "interrupted", "the run was stopped (Ctrl-C)",
                    seconds=round(time.monotonic() - t0, 2), **common,
                ))
            self.q.finish(tid, "interrupted")
            raise
        except Exception as e:
            # run_task should record its own failures; this is the net under it.
            alive = self.session is not None and await self.session.healthy()
            status = "error" if alive else "browser_error"
            msg = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if not alive:
                msg = f"browser or CDP connection lost during the task ({msg})"
            result = failure_result(task, tid, status, msg, seconds=round(time.monotonic() - t0, 2), **common)
            write_result(task_dir, result)
        else:
            if read_result(task_dir) is None:  # the contract says run_task writes it; never lose it
                write_result(task_dir, result)
        self.q.finish(tid, result.status)


class BrowserUnavailable(RuntimeError):
    pass


async def run_worker(spec: WorkerSpec) -> int:
    """Run a worker until the queue is empty or it is stopped. Returns an exit code."""
    worker = Worker(spec)
    main = asyncio.current_task()
    loop = asyncio.get_running_loop()
    stopped = False

    def stop() -> None:
        nonlocal stopped
        # Only the first signal cancels: a second one (terminal Ctrl-C reaches both us and the
        # parent, which forwards it) must not interrupt the writing of the interrupted result.
        if not stopped and main is not None:
            stopped = True
            main.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop)
    worker.on_stop = stop
    worker.q.register_worker(spec.worker_id, os.getpid(), spec.cdp_url, spec.restarts)
    try:
        return await worker.run()
    except asyncio.CancelledError:
        return EXIT_INTERRUPTED


def worker_process_main(spec: WorkerSpec) -> None:
    """Entry point of a spawned worker process."""
    # Until the event loop installs its handlers, a Ctrl-C must not print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Our own process group: a terminal Ctrl-C reaches only the parent (which stops us in
    # order), not the browser; and the parent can kill us with our browser as one group.
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    code = asyncio.run(run_worker(spec))
    raise SystemExit(code)
