"""Many tasks on many browsers: a shared SQLite queue, one browser per worker, recovery by
scope, passive capture, a local (multiprocess) backend and an optional Ray backend.

Entry point: `webfovea.runner.api.run_tasks` (also importable from here, lazily, so that
importing the package does not pull in the backends).
"""

from __future__ import annotations

from typing import Any

__all__ = ["RunError", "RunOutcome", "run_tasks"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from webfovea.runner import api

        return getattr(api, name)
    raise AttributeError(name)
