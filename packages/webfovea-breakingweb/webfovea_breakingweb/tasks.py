"""The stateful tasks: collected from every registered app's task generator, per seed.

One source for the server (which app, what the families aim at) and the suite (the Task with
its plan, obligations and answer). An app's generator is its `AppSpec.tasks(seed)`, in the
app's own folder (the data requests' and the case mailbox's are written by hand, the others
instantiate templates). Generators are deterministic by seed: they read the app's seeded
content (`AppSpec.initial`), never anything else.

Each task's `targets` name what interventions hit (docs/breakingweb.md, "Targets an app's
tasks declare"): `main` (the route its submit step calls), `write` (state tasks), `submit`
(the button), `submit_step` (its index in the plan), `redo_from` (where a redo restarts),
`readback` (an expectation that holds only when the backend really holds the change, as the
page re-reads it), `verify_path` (the page the verify gate re-reads, when not the app's
page), `list` (the GET route that re-reads the collection the task changes), `drift`,
`series`, `unit`, `order_sensitive`, `form`, `decoy_of`, `error`; docs/breakingweb.md,
"Targets an app's tasks declare", is the reference.
"""

from __future__ import annotations

from functools import lru_cache

from webfovea_breakingweb import apps
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.spec import BaseState, StatefulTask
from webfovea_breakingweb.tiers import check_tier

__all__ = ["base_id", "initial_state", "stateful_tasks"]


def base_id(task_id: str) -> str:
    """`req-create-01--network.fabricated_success` -> `req-create-01` (paired copies)."""
    return task_id.split("--", 1)[0]


def initial_state(task: StatefulTask, seed: int) -> BaseState:
    """The clean initial state of `task`'s session (its app's, a fresh copy)."""
    return APPS[task.app].initial(task.task_id, seed)


def stateful_tasks(seed: int) -> dict[str, StatefulTask]:
    """Every registered app's tasks for `seed`, by id (rebuilt when the app registry changes)."""
    return _collect(seed, apps.version())


@lru_cache(maxsize=8)
def _collect(seed: int, version: int) -> dict[str, StatefulTask]:
    # The apps whose content is built per task (the first ones, written by hand) come first: the
    # catalogue (`--list`) and the runs have always listed their tasks in this order.
    first = [a for a in APPS.values() if a.content == "task"]
    tasks: list[StatefulTask] = []
    for app in [*first, *(a for a in APPS.values() if a not in first)]:
        if app.tasks is not None:
            tasks += app.tasks(seed)
    out: dict[str, StatefulTask] = {}
    for t in tasks:
        if t.task_id in out:
            raise ValueError(f"duplicate stateful task id {t.task_id}")
        if "--" in t.task_id:
            raise ValueError(f"task id {t.task_id}: '--' separates a variant from its task")
        if t.app not in APPS:
            raise ValueError(f"task {t.task_id} names the unregistered app {t.app!r}")
        check_tier(t.task_id, t.targets.get("tier"))
        out[t.task_id] = t
    return out
