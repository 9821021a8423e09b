"""One worker = one browser: claim a task from the driver, run it, hand it back, repeat.

A worker is a process of its own (`python -m webfovea.runner.worker`, started by a backend
on whichever node it runs on). It never opens the queue: it talks to the driver through
the channel (runner/channel.py). It writes each task folder under its work dir: that is the
output folder itself when the backend shares the driver's filesystem, otherwise a folder
of its own that it packs and uploads when the task ends (then deletes).

Recovery inside the worker (the driver handles what a worker cannot handle itself):
- before every task the browser is health-checked by a real round trip and rebuilt if dead;
- a per-task wall-clock limit (asyncio timeout around run_task) holds whatever the model
  or the page does; the task is then recorded as `timeout`;
- a browser/CDP connection lost mid-task makes that task a recorded `browser_error`;
- SIGINT/SIGTERM, or the driver's stop flag, cancel the running task: `interrupted`;
- a driver that stays unreachable stops the worker (no orphan keeps a browser running).
"""

# ruff: noqa: E402
from __future__ import annotations

import sys

if __name__ == "__main__":
    # A worker never runs httpx's command-line client, which `import httpx` loads whenever click,
    # rich and pygments are installed (~4 MiB PSS of every worker, docs/memory.md): without it
    # httpx keeps a stub `main`. Only in this process, which is ours; never on an import.
    # typeshed types sys.modules as dict[str, ModuleType], but None there is Python's own way
    # to make an import fail (the import system documents it): the stub is too narrow.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

import asyncio
import contextlib
import os
import pickle
import shutil
import signal
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.agent import run_task as agent_run_task
from webfovea.browser.session import FULL_BROWSERS, HEADLESS_SHELLS, BrowserLogin, BrowserSession
from webfovea.config import HarnessConfig
from webfovea.documents import ocr
from webfovea.record.atomic import append_json_line
from webfovea.record.files import failure_result, now_iso, read_result, write_result
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.runner.client import DriverClient, DriverUnreachable, Retired
from webfovea.runner.memory import release_memory, tune_allocator, tune_driver_env
from webfovea.runner.orphan import die_with_parent, leave_now, parent_gone
from webfovea.runner.procs import cmdline, descendants
from webfovea.runner.queue import STARTS_FILE
from webfovea.runner.transfer import pack_folders
from webfovea.task import Task

TaskFn = Callable[..., Awaitable[TaskResult]]
_BROWSER_NAMES = frozenset({*FULL_BROWSERS, *HEADLESS_SHELLS})
EXIT_OK, EXIT_INTERRUPTED, EXIT_NO_BROWSER, EXIT_NO_DRIVER = 0, 130, 3, 4


@dataclass
class WorkerSpec:
    """Everything a worker needs; picklable so it crosses a process or a Ray boundary."""

    worker_id: str
    model: str
    config: HarnessConfig
    driver_url: str = ""
    token: str = ""
    work_dir: str = ""  # holds the task folders; the output folder when `upload` is False
    upload: bool = False  # pack each finished folder and send it to the driver
    cdp_url: str | None = None
    task_timeout_s: float = 1900.0
    model_options: dict[str, Any] | None = None
    heartbeat_s: float = 1.0
    restarts: int = 0  # the incarnation: how many times this slot was started before
    task_fn: TaskFn = agent_run_task
    browser_attempts: int = 3
    driver_patience_s: float = 60.0
    extra: dict[str, Any] = field(default_factory=dict)
    headed: bool = False  # a launched browser shows its window (a full Chromium)


def browser_pid_of(root_pid: int) -> int | None:
    """The main Chromium process among root_pid's descendants (the one without --type=)."""
    found = []
    for c in descendants(root_pid):
        cmd = cmdline(c)
        name = Path(cmd[0].decode(errors="replace")).name if cmd else ""
        # Exact names: chrome_crashpad_handler also lacks --type= and must not be taken.
        if name in _BROWSER_NAMES and not any(a.startswith(b"--type=") for a in cmd):
            found.append(c)
    # Breadth-first: the first match is the browser; later ones would be nested oddities.
    return found[0] if found else None


class Worker:
    def __init__(self, spec: WorkerSpec) -> None:
        self.spec = spec
        self.work = Path(spec.work_dir)
        self.work.mkdir(parents=True, exist_ok=True)
        self.driver = DriverClient(
            spec.driver_url, spec.token, spec.worker_id, spec.restarts, patience_s=spec.driver_patience_s
        )
        ocr.read_through(self.driver.read_image)  # the driver reads the run's images (channel.py)
        self.session: BrowserSession | None = None
        self.on_stop: Callable[[], None] | None = None  # set by run_worker: cancels the worker
        self.state: dict[str, Any] = {"stage": "launching"}  # what the next heartbeat reports
        self._beat_now = asyncio.Event()

    async def _call(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        # Blocking HTTP in a thread: the event loop keeps beating while a claim or upload runs.
        return await asyncio.to_thread(fn, *args, **kw)

    def _report(self, **fields: Any) -> None:
        self.state.update(fields)
        self._beat_now.set()

    async def _heartbeat(self) -> None:
        # Beats from the event loop itself: if the loop is blocked, beats stop and the driver acts.
        last_ok = time.monotonic()
        while True:
            self._beat_now.clear()
            try:
                stop = await self._call(self.driver.heartbeat, **self.state)
            except Retired:
                stop = True
            if stop is not None:
                last_ok = time.monotonic()
            if parent_gone():
                # The driver (or node agent) that started us is dead: anything written now
                # could overwrite what a resumed run recorded. Go at once, with the browser.
                leave_now()
            if (
                stop or time.monotonic() - last_ok > self.spec.driver_patience_s
            ) and self.on_stop is not None:
                self.on_stop()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._beat_now.wait(), self.spec.heartbeat_s)

    def _login(self, cfg: HarnessConfig) -> BrowserLogin:
        """The config's saved logins; a profile folder is one per worker (Chromium locks it)."""
        profile = cfg.user_data_dir and str(Path(cfg.user_data_dir) / f"worker-{self.spec.worker_id}")
        return BrowserLogin(cfg.storage_state, profile or None)

    async def _open_browser(self) -> BrowserSession:
        self._report(stage="launching")
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
                    s = await BrowserSession.launch(
                        viewport=viewport, login=self._login(cfg), headless=not self.spec.headed
                    )
                if await s.healthy():
                    pid = None if self.spec.cdp_url else browser_pid_of(os.getpid())
                    self._report(stage="idle", browser_pid=pid)
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
                task = await self._call(self.driver.claim)
                if task is None:
                    return EXIT_OK
                await self._run_one(Task.model_validate(task))
                # A worker lives for many tasks: what one task left (its tabs, their renderers, the
                # objects its handlers held) must not stay, nor what it freed stay as its peak.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.session.close_pages(), 10)
                release_memory()
        except asyncio.CancelledError:
            return EXIT_INTERRUPTED
        except BrowserUnavailable as e:
            print(str(e), flush=True)
            return EXIT_NO_BROWSER
        except (DriverUnreachable, Retired) as e:
            print(f"worker {self.spec.worker_id}: {e}", flush=True)
            return EXIT_NO_DRIVER
        except OSError as e:  # its folder refuses writes (disk full): one line, the driver records it
            print(
                f"worker {self.spec.worker_id}: cannot write {e.filename or ''}: {e.strerror or e}",
                flush=True,
            )
            return EXIT_NO_DRIVER
        finally:
            hb.cancel()
            if self.session is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(self.session.close(), 15)

    async def _hand_over(self, tid: str, status: str) -> None:
        """Tell the driver the task is over; ship its folder first when the driver cannot see it."""
        if not self.spec.upload:
            await self._call(self.driver.finish, tid, status)
            return
        archive = self.work / f".{tid}.tar.gz"
        try:
            await self._call(pack_folders, self.work, [tid], archive)
            await self._call(self.driver.finish, tid, status, archive)
        finally:
            archive.unlink(missing_ok=True)
        shutil.rmtree(self.work / tid, ignore_errors=True)  # delivered: it lives in the output folder now

    async def _run_one(self, task: Task) -> None:
        tid = task.task_id
        task_dir = self.work / tid
        task_dir.mkdir(parents=True, exist_ok=True)
        append_json_line(
            task_dir / STARTS_FILE, {"worker": self.spec.worker_id, "pid": os.getpid(), "at": now_iso()}
        )
        started, t0 = now_iso(), time.monotonic()
        self._report(stage="task", step=0)

        def on_step(rec: StepRecord) -> None:
            self._report(stage=f"step {rec.step + 1}", step=rec.step + 1)

        common: dict[str, Any] = {"started_at": started, "model": self.spec.model, "config": self.spec.config}
        try:
            result = await asyncio.wait_for(
                self.spec.task_fn(
                    task,
                    task_dir,
                    model=self.spec.model,
                    config=self.spec.config,
                    session=self.session,
                    model_options=self.spec.model_options,
                    on_step=on_step,
                ),
                self.spec.task_timeout_s,
            )
        except TimeoutError:
            prior = read_result(task_dir)  # run_task saw the cancel and may have recorded progress
            extra: dict[str, Any] = {"steps": prior.steps, "usage": prior.usage} if prior else {}
            result = failure_result(
                task,
                tid,
                "timeout",
                f"the task's wall-clock limit of {self.spec.task_timeout_s:g} s was reached",
                seconds=round(time.monotonic() - t0, 2),
                **extra,
                **common,
            )
            _keep_result(task_dir, result)
        except asyncio.CancelledError:
            prior = read_result(task_dir)
            if prior is None or prior.status != "interrupted":
                _keep_result(
                    task_dir,
                    failure_result(
                        task,
                        tid,
                        "interrupted",
                        "the run was stopped (Ctrl-C)",
                        seconds=round(time.monotonic() - t0, 2),
                        **common,
                    ),
                )
            # Still handed over: the driver keeps serving during the stop grace period.
            with contextlib.suppress(Exception):
                await self._hand_over(tid, "interrupted")
            raise
        except Exception as e:
            # run_task should record its own failures; this is the net under it.
            alive = self.session is not None and await self.session.healthy()
            status = "error" if alive else "browser_error"
            msg = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if not alive:
                msg = f"browser or CDP connection lost during the task ({msg})"
            result = failure_result(task, tid, status, msg, seconds=round(time.monotonic() - t0, 2), **common)
            _keep_result(task_dir, result)
        else:
            if read_result(task_dir) is None:  # the contract says run_task writes it; never lose it
                _keep_result(task_dir, result)
        self._report(stage="idle", step=None)
        await self._hand_over(tid, result.status)


def _keep_result(task_dir: Path, result: TaskResult) -> None:
    """Write the result; a disk that refuses it is one line (the driver then records the task)."""
    try:
        write_result(task_dir, result)
    except OSError as e:
        print(f"cannot write {task_dir / 'result.json'}: {e.strerror or e}", flush=True)


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
        # Only the first request cancels: a second one (terminal Ctrl-C reaches both us and the
        # parent, which forwards it) must not interrupt the writing of the interrupted result.
        if not stopped and main is not None:
            stopped = True
            main.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop)
    worker.on_stop = stop
    try:
        await worker._call(worker.driver.register, os.getpid(), socket.gethostname(), spec.cdp_url)
        return await worker.run()
    except asyncio.CancelledError:
        return EXIT_INTERRUPTED
    except (DriverUnreachable, Retired) as e:
        print(f"worker {spec.worker_id}: {e}", flush=True)
        return EXIT_NO_DRIVER
    finally:
        ocr.read_through(None)
        worker.driver.close()


def main() -> None:
    """Entry point of a worker process: the pickled WorkerSpec arrives on stdin."""
    # Until the event loop installs its handlers, a Ctrl-C must not print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    tune_allocator()  # before asyncio starts any thread
    tune_driver_env(os.environ)  # the Playwright driver this worker starts inherits it
    spec: WorkerSpec = pickle.loads(sys.stdin.buffer.read())
    raise SystemExit(asyncio.run(run_worker(spec)))


if __name__ == "__main__":
    main()
