"""Which BrowserGym tasks webfovea can run: a benchmark is a row (its package, the list of its
task classes, how a task is built), a task is named `<benchmark>.<task>` as BrowserGym names it
(`miniwob.click-test`).

BrowserGym's own registry is gymnasium's, whose entries hide the task class inside an
environment that launches Playwright's bundled Chromium (which cannot be downloaded here), so
the task classes are taken from each benchmark's list instead and driven on the harness's page.
Only benchmarks that run offline have a row; WebArena, WorkArena and the rest need their
servers and a row of their own (docs/browsergym.md).
"""

from __future__ import annotations

import fnmatch
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webfovea.environments.browsergym.miniwob_site import miniwob_url


class BrowserGymMissing(Exception):
    """The benchmark, or BrowserGym itself, is not installed, or the task is unknown."""


@dataclass(frozen=True)
class Benchmark:
    name: str
    module: str  # the package holding the task list
    tasks_attr: str  # its list of task classes
    build: Callable[[type, int], Any]  # (task class, seed) -> the task
    install: str  # what to install, for the error message


BENCHMARKS: dict[str, Benchmark] = {
    "miniwob": Benchmark(
        "miniwob",
        "browsergym.miniwob",
        "ALL_MINIWOB_TASKS",
        lambda cls, seed: cls(seed=seed, base_url=miniwob_url()),
        "browsergym-core, browsergym-miniwob and miniwob (WEBFOVEA_EXTRAS=...,browsergym scripts/setup)",
    ),
}


def _classes(bench: Benchmark) -> dict[str, type]:
    try:
        module = importlib.import_module(bench.module)
    except ImportError as e:
        raise BrowserGymMissing(
            f"BrowserGym's {bench.name} is not installed ({e}): install {bench.install}"
        ) from e
    return {cls.get_task_id(): cls for cls in getattr(module, bench.tasks_attr)}


def task_ids(pattern: str) -> list[str]:
    """The task ids a spec names: `miniwob` (all of the benchmark), `miniwob.click-test`, or a
    shell pattern (`miniwob.click-*`)."""
    bench_name = pattern.split(".", 1)[0]
    bench = BENCHMARKS.get(bench_name)
    if bench is None:
        raise BrowserGymMissing(
            f"unknown BrowserGym benchmark {bench_name!r}: webfovea runs {', '.join(BENCHMARKS)}"
        )
    ids = sorted(_classes(bench))
    if pattern == bench_name:
        return ids
    picked = [i for i in ids if fnmatch.fnmatchcase(i, pattern)]
    if not picked:
        raise BrowserGymMissing(f"no {bench_name} task matches {pattern!r} (e.g. {', '.join(ids[:3])})")
    return picked


def make_task(task_id: str, seed: int) -> Any:
    bench = BENCHMARKS.get(task_id.split(".", 1)[0])
    if bench is None:
        raise BrowserGymMissing(f"unknown BrowserGym benchmark in {task_id!r}")
    cls = _classes(bench).get(task_id)
    if cls is None:
        raise BrowserGymMissing(f"unknown BrowserGym task {task_id!r}")
    return bench.build(cls, seed)
