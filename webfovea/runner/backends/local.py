"""Worker processes on this machine, each leading its own process group (with its browser).

Its own group because a terminal Ctrl-C must reach only the driver (which stops workers
in order), and because a stuck worker is killed together with the Chromium it started.
`spawn_worker` is also what a Ray node agent uses on its own node.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from webfovea.runner.backends import Exit
from webfovea.runner.orphan import PARENT_ENV
from webfovea.runner.transfer import pack_leftovers
from webfovea.runner.worker import WorkerSpec


def kill_group(pid: int) -> None:
    """SIGKILL a worker with its browser (the worker leads its own process group)."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def spawn_worker(spec: WorkerSpec) -> subprocess.Popen[bytes]:
    """`python -m webfovea.runner.worker` with the pickled spec on stdin, in a new process group."""
    env = dict(os.environ)
    # The child must import what this process can (the task function may live in tests/).
    paths = [p or os.getcwd() for p in sys.path]
    env["PYTHONPATH"] = os.pathsep.join(paths + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env[PARENT_ENV] = str(os.getpid())  # the worker dies with this process (runner/orphan.py)
    proc = subprocess.Popen(
        [sys.executable, "-m", "webfovea.runner.worker"],
        stdin=subprocess.PIPE,
        env=env,
        process_group=0,
    )
    assert proc.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(pickle.dumps(spec))
        proc.stdin.close()
    return proc


@dataclass
class LocalHandle:
    spec: WorkerSpec
    proc: subprocess.Popen[bytes]
    exit: Exit | None = None


class LocalBackend:
    name = "local"
    channel_host = "127.0.0.1"

    def __init__(self, *, shares_filesystem: bool = True) -> None:
        self.shares_filesystem = shares_filesystem
        self.handles: list[LocalHandle] = []

    def start(self, spec: WorkerSpec) -> LocalHandle:
        h = LocalHandle(spec, spawn_worker(spec))
        self.handles.append(h)
        return h

    def exit_status(self, handle: LocalHandle) -> Exit | None:
        if handle.exit is None:
            code = handle.proc.poll()
            if code is None:
                return None
            left = None if self.shares_filesystem else pack_leftovers(Path(handle.spec.work_dir))
            handle.exit = Exit(code, f"exited with code {code}", left)
        return handle.exit

    def stop(self, handle: LocalHandle, *, kill: bool) -> None:
        if kill:
            kill_group(handle.proc.pid)  # also the browser if the worker already exited without it
            with contextlib.suppress(subprocess.TimeoutExpired):
                handle.proc.wait(5)
        elif handle.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(handle.proc.pid, signal.SIGINT)

    def close(self) -> None:
        handles, self.handles = self.handles, []  # idempotent
        for h in handles:
            if h.proc.poll() is None:
                kill_group(h.proc.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    h.proc.wait(5)
