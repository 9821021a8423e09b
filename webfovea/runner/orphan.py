"""A worker never outlives the process that started it.

A worker left running after its driver was SIGKILLed would go on writing task folders that a
resumed run has already recorded as `worker_lost` (and keep a browser busy). Two guards:

- at start, Linux's PR_SET_PDEATHSIG asks the kernel to send SIGHUP when the parent dies;
  the handler SIGKILLs the worker's whole process group (it leads one, with its browser);
- on every heartbeat the worker compares its parent pid with the one it was started by
  (the guard for platforms without prctl, and for a parent that died before the prctl).

The parent's pid reaches the worker in $WEBFOVEA_WORKER_PARENT (set by `spawn_worker`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from types import FrameType

PARENT_ENV = "WEBFOVEA_WORKER_PARENT"
_PR_SET_PDEATHSIG = 1


def _kill_own_group(signum: int = 0, frame: FrameType | None = None) -> None:
    """SIGKILL the worker's process group (itself and its browser); never returns."""
    with contextlib.suppress(OSError):
        if os.getpgrp() == os.getpid():  # only a group this worker leads, never the caller's
            os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(137)


def expected_parent() -> int | None:
    value = os.environ.get(PARENT_ENV, "")
    return int(value) if value.isdigit() else None


def parent_gone() -> bool:
    """True when the process that started this worker is no longer its parent (it died)."""
    parent = expected_parent()
    return parent is not None and os.getppid() != parent


def die_with_parent() -> None:
    """Call first thing in a worker process: arrange to die (with the browser) with the parent."""
    if expected_parent() is None:
        return  # not started by spawn_worker (a test calling the worker in-process)
    signal.signal(signal.SIGHUP, _kill_own_group)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGHUP, 0, 0, 0)
    if parent_gone():  # it died before the prctl took effect: nobody will send the signal
        _kill_own_group()


def leave_now() -> None:
    """The heartbeat found the parent gone: go at once, with the browser."""
    _kill_own_group()
