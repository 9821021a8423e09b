"""Suites: named sets of tasks `webfovea bench NAME` runs (docs/plugins.md).

A suite is a `Suite` record — its name and description, how it loads its tasks from running
sites (the sites' handle, the seed, the `SuiteOptions` it accepts), what runs after a run of it,
the options it reloads its tasks with to replay a recorded run, its own defaults and catalogue —
registered in `SUITES`. Built-in suites (the proving ground's) and outside ones register the same
way: an entry point in the `webfovea.suites` group naming the `Suite`, or `SUITES.register(suite)`.
The application layer looks a suite up here and never tests a suite's name.

A suite's own options (BreakingWeb's `--pairing`, `--families`, ...) are declared by its plug-in
through the `webfovea_suite_options` hook; their values reach the loader in `SuiteOptions.values`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.plugins import Registry, SuiteOption, plugin_manager
from webfovea.task import Task

__all__ = [
    "SUITES",
    "Suite",
    "SuiteError",
    "SuiteOptions",
    "not_accepted",
    "site_task_suite",
    "suite_option_specs",
]

ENTRY_POINT_GROUP = "webfovea.suites"


class SuiteError(ValueError):
    """A suite asked for with options it does not take, or options its loader refuses."""


@dataclass(frozen=True)
class SuiteOptions:
    """The suite's own options given on this run, by name (`SuiteOption.dest`): only what was set."""

    values: Mapping[str, Any] = field(default_factory=dict)

    def given(self) -> list[str]:
        """The names of the options set to something other than nothing."""
        return [k for k, v in self.values.items() if v not in (None, False, (), [], "")]

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name, default)
        return default if value in (None, (), []) else value


# (the running sites, the seed, the options) -> the tasks, bound to those sites.
Loader = Callable[[Any, int, SuiteOptions], list[Task]]
# (the running sites, the tasks run, the run folder) -> lines for the user (files it writes are its own).
AfterRun = Callable[[Any, list[Task], Path], list[str]]
# (the seed) -> what the suite holds beyond its task list, without starting any site: its
# block of `--list --json` (`extensions.<suite name>`).
Catalogue = Callable[[int], dict[str, Any]]
# (that block) -> Rich renderables (tables) for `--list` on a terminal.
CatalogueView = Callable[[dict[str, Any]], list[Any]]
# (the options) -> what summary.json's meta records of them (e.g. {"pairing": "official"}).
RunMeta = Callable[[SuiteOptions], dict[str, Any]]
# (the tasks, the run folder, the run: model, seed, max_steps, handle, fresh) -> whether every
# task has a result: the suite's own harness runs the tasks and writes one result.json each.
OwnRun = Callable[[list[Task], Path, Mapping[str, Any]], bool]
# (the options) -> the suite's own runner for them, or None: webfovea's harness runs the tasks.
OwnRunner = Callable[[SuiteOptions], OwnRun | None]


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    load: Loader
    after: AfterRun | None = None
    accepts: frozenset[str] = frozenset()  # names of the suite options it takes
    # A recorded run's tasks are looked up by id among the tasks loaded with these options.
    replay_options: SuiteOptions = field(default_factory=SuiteOptions)
    # Defaults of the suite's own design (None: the command's): the seed and the step cap.
    default_seed: int | None = None
    default_max_steps: int | None = None
    catalogue: Catalogue | None = None
    catalogue_view: CatalogueView | None = None
    # `--list` builds the tasks against the proving ground named but not started (its loader
    # needs only the handle's seed, `url()`, `frame_url` and `ctx`); False: it starts the sites.
    lists_without_sites: bool = True
    run_meta: RunMeta | None = None
    # Checks the options before any site starts (SuiteError with what to do).
    check_options: Callable[[SuiteOptions], None] | None = None
    # A task file whose tasks name a site (`Task.site`) is replayed from this suite's tasks by id.
    holds_site_tasks: bool = False
    # Another harness for some options (BreakingWeb's --harness text|gui); scored and summarised
    # as any run.
    own_runner: OwnRunner | None = None

    def runner(self, options: SuiteOptions) -> OwnRun | None:
        return self.own_runner(options) if self.own_runner is not None else None

    def check(self, options: SuiteOptions) -> None:
        """SuiteError for an option this suite does not take or refuses (before any site starts)."""
        refused = [o for o in options.given() if o not in self.accepts]
        if refused:
            raise SuiteError(not_accepted(refused))
        if self.check_options is not None:
            self.check_options(options)

    def tasks(self, handle: Any, seed: int, options: SuiteOptions | None = None) -> list[Task]:
        """The suite's tasks on running sites; SuiteError for options it does not take or refuses."""
        options = options or SuiteOptions()
        self.check(options)
        return self.load(handle, seed, options)

    def replay_tasks(self, handle: Any, seed: int) -> list[Task]:
        """Every task a run of this suite may have recorded, on running sites."""
        return self.load(handle, seed, self.replay_options)

    def meta(self, options: SuiteOptions) -> dict[str, Any]:
        return self.run_meta(options) if self.run_meta is not None else {}


SUITES: Registry[Suite] = Registry("suite", ENTRY_POINT_GROUP, Suite)


def site_task_suite() -> Suite | None:
    """The suite a task file over the sites' tasks is replayed from (`holds_site_tasks`)."""
    return next((s for s in SUITES.values() if s.holds_site_tasks), None)


def suite_option_specs(command: str | None = None) -> list[SuiteOption]:
    """Every suite option the plug-ins declare (for `command`: bench or ab, when given)."""
    specs = [s for batch in plugin_manager().hook.webfovea_suite_options() for s in batch or ()]
    return [s for s in specs if command is None or command in s.commands]


def not_accepted(options: list[str]) -> str:
    """`--pairing and --families apply to the breakingweb suite only` (from the registered suites)."""
    flag_of = {s.dest: s.flags[0] for s in suite_option_specs()}
    flags = " and ".join(flag_of.get(o, o) for o in options)
    takers = [s.name for s in SUITES.values() if set(options) <= s.accepts]
    where = f"the {' and '.join(takers)} suite{'s' if len(takers) > 1 else ''} only" if takers else "no suite"
    return f"{flags} {'apply' if len(options) > 1 else 'applies'} to {where}"
