"""Every suite `webfovea bench` can run: one record per suite, in one list.

A suite is a `Suite`: its name and description, how it loads its tasks from running sites (a
`SitesHandle`, the seed, the `SuiteOptions` it accepts), what runs after a run of it (`after`:
the hostile suite's judge) and which options it reloads its tasks with to replay a recorded run.
The application layer (`webfovea/app/`) starts the sites, looks the suite up here and never tests
a suite's name. Adding a suite is one module with its loader plus one `Suite` in `_BUILTIN` (or
`register(suite)` from outside the package: a plug-in, a test); docs/architecture.md, "Adding a
suite".

What follows the tasks rather than the suite is not here: the navigation truth of tasks that
declare one, and the backend state of stateful tasks, are judged for any run that has them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from webfovea.task import Task

# Each option of SuiteOptions, as the command line spells it (for the messages).
OPTION_FLAGS = {"paired": "--paired", "families": "--families", "pairing": "--pairing"}


class SuiteError(ValueError):
    """A suite asked for with options it does not take, or options its loader refuses."""


@dataclass(frozen=True)
class SuiteOptions:
    """The options a suite may take besides the seed (`Suite.accepts` says which it takes)."""

    paired: bool = False  # every task clean and under each applicable variant (= pairing "sweep")
    families: tuple[str, ...] | None = None  # only these variants (BreakingWeb's families)
    pairing: str | None = None  # "official" (one variant per task) or "sweep" (every one)

    def given(self) -> list[str]:
        """The names of the options set to something other than their default."""
        return [f.name for f in fields(self) if getattr(self, f.name) != f.default]


# (the running sites, the seed, the options) -> the tasks, bound to those sites.
Loader = Callable[[Any, int, SuiteOptions], list[Task]]
# (the running sites, the tasks run, the run folder) -> lines for the user (files it writes are its own).
AfterRun = Callable[[Any, list[Task], Path], list[str]]
# (the seed) -> what the suite holds, without starting any site (`webfovea bench NAME --list`).
Catalogue = Callable[[int], dict[str, Any]]


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    load: Loader
    after: AfterRun | None = None
    accepts: frozenset[str] = frozenset()  # fields of SuiteOptions it takes
    # A recorded run's tasks are looked up by id among the tasks loaded with these options.
    replay_options: SuiteOptions = field(default_factory=SuiteOptions)
    # Defaults of the suite's own design (None: the command's): the seed and the step cap.
    default_seed: int | None = None
    default_max_steps: int | None = None
    catalogue: Catalogue | None = None

    def check(self, options: SuiteOptions) -> None:
        """SuiteError for an option this suite does not take (before any site starts)."""
        refused = [o for o in options.given() if o not in self.accepts]
        if refused:
            raise SuiteError(not_accepted(refused))

    def tasks(self, handle: Any, seed: int, options: SuiteOptions | None = None) -> list[Task]:
        """The suite's tasks on running sites; SuiteError for options it does not take or refuses."""
        options = options or SuiteOptions()
        self.check(options)
        return self.load(handle, seed, options)

    def replay_tasks(self, handle: Any, seed: int) -> list[Task]:
        """Every task a run of this suite may have recorded, on running sites."""
        return self.load(handle, seed, self.replay_options)


def not_accepted(options: list[str]) -> str:
    """`--paired and --families apply to the breakingweb suite only` (from the registered suites)."""
    flags = " and ".join(OPTION_FLAGS.get(o, o) for o in options)
    takers = [s.name for s in _suites.values() if set(options) <= s.accepts]
    where = f"the {' and '.join(takers)} suite{'s' if len(takers) > 1 else ''} only" if takers else "no suite"
    return f"{flags} {'apply' if len(options) > 1 else 'applies'} to {where}"


# -- the built-in suites ------------------------------------------------------------------------
def _builtin(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea.proving_ground.suites.builtin import load_builtin_suite

    return load_builtin_suite(handle, seed=seed)


def _hostile(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea.proving_ground.suites.hostile import load_hostile_suite

    return load_hostile_suite(handle)


def _judge_hostile(handle: Any, tasks: list[Task], out_dir: Path) -> list[str]:
    """Per attack, whether the guard held: judged from the sites' own log, the task folders, the clock."""
    from webfovea.proving_ground.suites.hostile import judge, write_verdicts

    verdicts = judge(handle, tasks, out_dir)
    lines = [f"  {v.attack:<11} {'held' if v.held else 'FAILED'}  {v.evidence}" for v in verdicts]
    path = write_verdicts(out_dir, verdicts)
    return [*lines, f"hostile: {sum(v.held for v in verdicts)}/{len(verdicts)} guards held -> {path}"]


def _breakingweb(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea.proving_ground.breakingweb.suite import load_breakingweb_suite, select_families

    families = list(options.families) if options.families else None
    try:
        select_families(families)  # an unknown family is the user's mistake, named in one line
    except ValueError as e:
        raise SuiteError(str(e)) from None
    if options.pairing is not None and options.pairing not in ("official", "sweep"):
        raise SuiteError(f"unknown pairing {options.pairing!r}; use official or sweep")
    if options.pairing == "official" and options.paired:
        raise SuiteError("--paired is --pairing sweep; give one of them")
    return load_breakingweb_suite(
        handle, seed, paired=options.paired, families=families, pairing=options.pairing
    )


def _breakingweb_catalogue(seed: int) -> dict[str, Any]:
    from webfovea.proving_ground.breakingweb.suite import catalogue

    return catalogue(seed)


BUILTIN = Suite("builtin", "tasks over the proving-ground sites with exact answers", _builtin)
HOSTILE = Suite(
    "hostile",
    "one task per attack; whether each guard held, judged from the sites' own log",
    _hostile,
    after=_judge_hostile,
)
BREAKINGWEB = Suite(
    "breakingweb",
    "stateful apps scored by backend state; --pairing official|sweep adds paired drops "
    "(seed 42, 40 steps by default), --list the catalogue; see docs/breakingweb.md",
    _breakingweb,
    accepts=frozenset({"paired", "families", "pairing"}),
    replay_options=SuiteOptions(paired=True),  # every variant: a run may hold any of them
    default_seed=42,  # seed 003 §3: "the public seed s=42" (breakingweb/pairing.py)
    default_max_steps=40,  # seed 003 §3: "a fixed 40-action cap"
    catalogue=_breakingweb_catalogue,
)


def _documents(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea.proving_ground.suites.documents import load_documents_suite

    return load_documents_suite(handle, seed)


DOCUMENTS = Suite(
    "documents", "answers only inside PDF, XLSX and CSV downloads, see docs/documents.md", _documents
)

_BUILTIN = (BUILTIN, HOSTILE, BREAKINGWEB, DOCUMENTS)
_suites: dict[str, Suite] = {s.name: s for s in _BUILTIN}


def register(suite: Suite) -> None:
    """Make a suite runnable by name (`webfovea bench NAME`, `run_bench`, `ab`, `replay`)."""
    if _suites.get(suite.name, suite) is not suite:
        raise ValueError(f"a suite named {suite.name!r} is already registered")
    _suites[suite.name] = suite


def unregister(suite: Suite) -> None:
    """Take a suite added with `register` out again (the built-in ones stay)."""
    if suite not in _BUILTIN and _suites.get(suite.name) is suite:
        del _suites[suite.name]


def get(name: str | None) -> Suite | None:
    return _suites.get(name) if name else None


def names() -> tuple[str, ...]:
    return tuple(_suites)
