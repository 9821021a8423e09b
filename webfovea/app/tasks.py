"""The tasks of a run: a registered suite's on freshly started sites, or a task file's (on the
proving ground when its tasks name it), and the selections every command shares (`--only`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.sites import INSTALL_HINT, PROVING_GROUND, proving_ground, resolve_site_url
from webfovea.app.sources import SOURCES, source_aliases, source_of
from webfovea.suites import SUITES, Suite, SuiteError, SuiteOptions, not_accepted
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea_proving_ground.serve import SitesHandle

_T = TypeVar("_T")


@dataclass
class RunTasks:
    """The tasks, the running sites when there are any (their request logs give the runs' truth,
    their control plane the backend state of stateful tasks) and the suite they came from."""

    tasks: list[Task]
    handle: SitesHandle | None = None
    suite: Suite | None = None  # None: a task file
    # Per-start addresses of an outside source's servers -> stable names (runner/identity.py).
    aliases: dict[str, str] = field(default_factory=dict)


def unknown_source(source: str) -> str:
    why = SUITES.why_missing(source)
    if why is not None:  # a suite plug-in of that name is installed but did not load
        hint = f" ({INSTALL_HINT})" if "ModuleNotFoundError" in why else ""
        return f"the suite {source!r} cannot be loaded: {why}{hint}"
    return (
        f"{source!r} is neither a built-in suite ({', '.join(SUITES.names())}), a task source "
        f"({', '.join(k + ':SPEC' for k in SOURCES)}) nor an existing task file"
    )


@contextlib.contextmanager
def open_tasks(
    source: str,
    seed: int = 0,
    ports: tuple[int, int] = (0, 0),
    options: SuiteOptions | None = None,
    reporter: Reporter | None = None,
) -> Iterator[RunTasks]:
    """A suite's tasks (starting and stopping its sites) or a task file's, for the `with` block."""
    options = options or SuiteOptions()
    if (outside := source_of(source)) is not None:  # `browsergym:...`: set up and scored outside
        if options.given():
            raise AppError(not_accepted(options.given()))
        loader, spec = outside
        tasks = loader(spec, seed)
        yield RunTasks(tasks, aliases=source_aliases(source))
        return
    suite = SUITES.get(source)
    if suite is not None:
        _suite_call(suite.check, options)  # before any site starts
        with proving_ground(seed, ports, reporter) as handle:
            yield RunTasks(_suite_call(suite.tasks, handle, seed, options), handle, suite)
        return
    if options.given():
        raise AppError(not_accepted(options.given()))
    with _task_file(source, seed, ports, reporter) as loaded:
        yield loaded


def _suite_call(fn: Callable[..., _T], *args: Any) -> _T:
    try:
        return fn(*args)
    except SuiteError as e:
        raise AppError(str(e)) from None


def read_task_file(source: str) -> list[Task]:
    """A task file's tasks as written (the proving ground's still `http://proving-ground/...`);
    AppError when it does not exist or is not a task file."""
    path = Path(source)
    if not path.exists():
        raise AppError(unknown_source(source))
    from webfovea.eval.taskfile import TaskFileError, load_task_file

    try:  # a task may name a proving-ground site only when the proving ground is installed
        from webfovea_proving_ground.sites import SITES
    except ModuleNotFoundError:
        SITES = []
    try:
        return load_task_file(path, known_sites={name for name, _, _ in SITES})
    except TaskFileError as e:
        raise AppError(str(e)) from None


@contextlib.contextmanager
def _task_file(
    source: str, seed: int, ports: tuple[int, int], reporter: Reporter | None
) -> Iterator[RunTasks]:
    tasks = read_task_file(source)
    if not any(t.site or t.website.startswith(PROVING_GROUND) for t in tasks):
        yield RunTasks(tasks)
        return
    # Tasks over the proving ground: start its sites and point the placeholders at them.
    with proving_ground(seed, ports, reporter) as handle:
        from webfovea_proving_ground.suites.builtin import with_sessions

        resolved = [
            t.model_copy(
                update={
                    "website": resolve_site_url(t.website, handle.main_url),
                    "allow_origins": [*t.allow_origins, handle.frame_url],
                }
            )
            for t in tasks
        ]
        yield RunTasks(with_sessions(resolved, handle, seed), handle)


def only(tasks: list[Task], patterns: str) -> list[Task]:
    """The tasks whose id (or, for a paired variant, whose clean task's id) matches a pattern."""
    from fnmatch import fnmatchcase

    wanted = [p.strip() for p in patterns.split(",") if p.strip()]
    kept = [
        t
        for t in tasks
        if any(
            fnmatchcase(t.task_id, p) or fnmatchcase(str((t.model_extra or {}).get("pair_of", "")), p)
            for p in wanted
        )
    ]
    if not kept:
        sample = ", ".join(t.task_id for t in tasks[:5])
        raise AppError(
            f"--only {patterns!r} matches none of the {len(tasks)} tasks (ids look like: {sample}, …)"
        )
    return kept
