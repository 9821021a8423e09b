"""Many tasks on many browsers: one driver, one supervision loop, workers anywhere.

The driver (the process calling `run_tasks`) alone opens the queue (`<out>/queue.sqlite`)
and serves it to workers over an authenticated HTTP channel (channel.py). One loop
(supervisor.py) starts the workers through a backend that only knows how to start a worker,
tell whether it ended and stop it (backends/: local processes, Ray actors), watches their
heartbeats, salvages what a lost worker held as `worker_lost` (never re-running a started
task), restarts it within budget, and stops everything in order on Ctrl-C. Workers that
share the driver's filesystem write task folders straight into the output folder; others
(Ray) write under their own work dir and upload each finished folder (transfer.py).
See docs/runner.md.

Entry point: `run_tasks(tasks, out_dir, RunOptions(...))` (also importable from here,
lazily, so that importing the package does not pull in the backends).
"""

from __future__ import annotations

from typing import Any

__all__ = ["RunError", "RunOptions", "RunOutcome", "run_tasks"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from webfovea.runner import api

        return getattr(api, name)
    raise AttributeError(name)
