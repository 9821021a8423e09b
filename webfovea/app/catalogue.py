"""What a source of tasks holds, without running it: `webfovea bench SOURCE --list [--json]`.

One shape for every source — a registered suite, a `KIND:SPEC` task source (`browsergym:…`), a
task file — documented in docs/guide.md, "Listing what a source holds": the tasks a run would
load (the same loader, seed and suite options), their counts by site and category, and under
`extensions.<suite>` what the suite's plug-in adds (`Suite.catalogue`, its schema the plug-in's;
on a terminal, `Suite.catalogue_view` draws it). No browser starts; a suite's tasks are built
against the proving ground named but not started (`http://proving-ground/...`), or on its
started sites when the suite says its loader needs them (`Suite.lists_without_sites`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.table import Table

from webfovea.app.bench import suite_defaults
from webfovea.app.errors import AppError
from webfovea.app.sites import PROVING_GROUND, PROVING_GROUND_FRAMES, needs_proving_ground, proving_ground
from webfovea.app.sources import source_of
from webfovea.app.tasks import read_task_file
from webfovea.suites import SUITES, Suite, SuiteError, SuiteOptions, not_accepted
from webfovea.task import Task

KINDS = ("suite", "task_source", "task_file")
NO_NAME = "-"  # a task that names no site or category is counted under this key


def list_source(source: str, seed: int | None = None, options: SuiteOptions | None = None) -> dict[str, Any]:
    """The listing of a suite, task source or task file (AppError for anything else)."""
    options = options or SuiteOptions()
    suite = SUITES.get(source)
    outside = source_of(source)
    if suite is None and options.given():
        raise AppError(not_accepted(options.given()))
    extensions: dict[str, Any] = {}
    if outside is not None:
        loader, spec = outside
        seed = 0 if seed is None else seed
        kind, tasks = "task_source", loader(spec, seed)
        description = f"tasks of the {source.partition(':')[0]} task source, set up and scored by it"
    elif suite is not None:
        seed, _ = suite_defaults(source, seed, None)
        kind, tasks, description = "suite", _suite_tasks(suite, seed, options), suite.description
        if suite.catalogue is not None:
            extensions[suite.name] = suite.catalogue(seed)
    else:
        seed = 0 if seed is None else seed
        kind, tasks = "task_file", read_task_file(source)
        description = f"the tasks of the file {source}"
    return {
        "source": source,
        "kind": kind,
        "seed": seed,
        "description": description,
        "options": {k: options.values[k] for k in options.given()},
        "tasks": [_row(t) for t in tasks],
        "counts": {
            "tasks": len(tasks),
            "by_site": _count(t.site for t in tasks),
            "by_category": _count(t.category for t in tasks),
        },
        "extensions": extensions,
    }


def _suite_tasks(suite: Suite, seed: int, options: SuiteOptions) -> list[Task]:
    try:
        suite.check(options)  # before any site starts, as a run does
        if suite.lists_without_sites:
            with needs_proving_ground(f"listing the {suite.name} suite"):
                from webfovea_proving_ground.placeholder import PlaceholderSites

            return suite.tasks(PlaceholderSites(seed, PROVING_GROUND, PROVING_GROUND_FRAMES), seed, options)
        with proving_ground(seed) as handle:
            tasks = suite.tasks(handle, seed, options)
            # The started sites' ports are this start's only: list the names a task file uses.
            return [t.model_copy(update={"website": _placeholder(t.website, handle.main_url)}) for t in tasks]
    except SuiteError as e:
        raise AppError(str(e)) from None


def _placeholder(website: str, main_url: str) -> str:
    return PROVING_GROUND + website[len(main_url) :] if website.startswith(main_url) else website


def _row(t: Task) -> dict[str, Any]:
    return {
        "task_id": t.task_id,
        "site": t.site,
        "category": t.category,
        "website": t.website,
        "task": t.task,
    }


def _count(names: Any) -> dict[str, int]:
    return dict(sorted(Counter(n or NO_NAME for n in names).items()))


def listing_tables(data: dict[str, Any]) -> list[Any]:
    """The tasks, their counts, then each plug-in's own view of its block (`Suite.catalogue_view`)."""
    tasks = Table(title=f"{data['source']} · {data['kind'].replace('_', ' ')} · seed {data['seed']}")
    for col in ("task", "site", "category", "website"):
        tasks.add_column(col, no_wrap=col == "task")
    for t in data["tasks"]:
        tasks.add_row(t["task_id"], t["site"] or NO_NAME, t["category"] or NO_NAME, t["website"])
    tasks.caption = data["description"]
    counts = Table(title="counts")
    counts.add_column("what")
    counts.add_column("tasks", justify="right")
    counts.add_row("all", str(data["counts"]["tasks"]))
    for axis in ("by_site", "by_category"):
        for name, n in data["counts"][axis].items():
            counts.add_row(f"  {axis.removeprefix('by_')} {name}", str(n))
    out: list[Any] = [tasks, counts]
    for name, block in data["extensions"].items():
        suite = SUITES.get(name)
        if suite is not None and suite.catalogue_view is not None:
            out.extend(suite.catalogue_view(block))
    return out
