"""One task of a registered suite for `webfovea run --suite-task SUITE:TASK_ID`: its sites
started for the length of the run, the task as the suite builds it (instruction, start URL on
the running sites, session, and the plan the oracle follows).

This is how `webfovea run` works with the oracle out of the box: the oracle acts on a plan,
not on an instruction, so it needs the suite's task, never a bare `--task`/`--url` pair (a URL
and a sentence do not say which plan was meant, and the proving ground's pages change with the
seed)."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Iterator

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.tasks import open_tasks
from webfovea.suites import SUITES
from webfovea.task import Task

FORM = "SUITE:TASK_ID (e.g. builtin:stats-select-01-vn)"


def split_suite_task(spec: str) -> tuple[str, str]:
    """`builtin:stats-select-01-vn` -> (`builtin`, `stats-select-01-vn`); AppError naming the form."""
    suite, sep, task_id = spec.strip().partition(":")
    if not sep or not suite.strip() or not task_id.strip():
        raise AppError(f"--suite-task {spec!r}: expected {FORM}")
    if SUITES.get(suite.strip()) is None:
        raise AppError(
            f"--suite-task {spec!r}: no suite {suite.strip()!r}; suites: {', '.join(SUITES.names())}"
        )
    return suite.strip(), task_id.strip()


def _pick(tasks: list[Task], suite: str, task_id: str) -> Task:
    for task in tasks:
        if task.task_id == task_id:
            return task
    ids = [t.task_id for t in tasks]
    near = difflib.get_close_matches(task_id, ids, n=5, cutoff=0.5) or ids[:5]
    raise AppError(
        f"--suite-task: the {suite} suite has no task {task_id!r} ({len(ids)} tasks; "
        f"close: {', '.join(near)})"
    )


@contextlib.contextmanager
def open_suite_task(spec: str, seed: int = 0, reporter: Reporter | None = None) -> Iterator[Task]:
    """The named task, on the suite's sites, which run until the `with` block ends."""
    suite, task_id = split_suite_task(spec)
    with open_tasks(suite, seed, reporter=reporter) as loaded:
        yield _pick(loaded.tasks, suite, task_id)
