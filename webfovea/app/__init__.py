"""The application layer: running a suite, an A/B and a replay as Python calls.

    from webfovea.app import BenchOptions, run_bench
    result = run_bench(BenchOptions("builtin", model="oracle", limit=2))
    result.summary.passed

The command line (`webfovea/cli/`) only parses options into these records, calls these
functions and prints what their `Reporter` is told; a Python caller passes its own reporter or
none (silent). Mistakes of the caller are `AppError`s. Suites come from the proving ground's
catalogue (`packages/webfovea-proving-ground/webfovea_proving_ground/suites/catalog.py`)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webfovea.app.ab import AbOptions, AbResult, run_ab
    from webfovea.app.bench import BenchOptions, BenchResult, run_bench
    from webfovea.app.errors import AppError
    from webfovea.app.replay import ReplayOptions, ReplayResult, run_replay
    from webfovea.app.reporter import Reporter

# Lazy, as `webfovea` itself: the CLI imports the reporter at start-up, not every run's modules.
_HOME = {
    "AbOptions": "ab",
    "AbResult": "ab",
    "run_ab": "ab",
    "BenchOptions": "bench",
    "BenchResult": "bench",
    "run_bench": "bench",
    "AppError": "errors",
    "ReplayOptions": "replay",
    "ReplayResult": "replay",
    "run_replay": "replay",
    "Reporter": "reporter",
}
__all__ = [
    "AbOptions",
    "AbResult",
    "AppError",
    "BenchOptions",
    "BenchResult",
    "ReplayOptions",
    "ReplayResult",
    "Reporter",
    "run_ab",
    "run_bench",
    "run_replay",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(name)
    return getattr(import_module(f"webfovea.app.{_HOME[name]}"), name)
