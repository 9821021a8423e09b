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
from webfovea_breakingweb.engine.spec import AppSpec, BaseState, StatefulTask
from webfovea_breakingweb.tiers import check_tier

__all__ = ["base_id", "find_task", "initial_state", "stateful_tasks"]


def base_id(task_id: str) -> str:
    """`req-create-01--network.fabricated_success` -> `req-create-01` (paired copies)."""
    return task_id.split("--", 1)[0]


def initial_state(task: StatefulTask, seed: int) -> BaseState:
    """The clean initial state of `task`'s session (its app's, a fresh copy)."""
    return APPS[task.app].initial(task.task_id, seed)


def stateful_tasks(seed: int) -> dict[str, StatefulTask]:
    """Every registered app's tasks for `seed`, by id (rebuilt when the app registry changes)."""
    return _collect(seed, apps.version())


def find_task(seed: int, task_id: str) -> StatefulTask | None:
    """The stateful task `task_id` names (a paired copy's base task), or None. Generates only the
    apps whose task ids could start so: every proving-ground session passes through here (the
    built-in suite's too), and generating every app's tasks cost ~0.8 s of CPU per process."""
    tid = base_id(task_id)
    for app in APPS.values():
        if tid.startswith(app.task_id_start) and (hit := _app_tasks(app, seed).get(tid)):
            return hit
    return None


@lru_cache(maxsize=64)
def _app_tasks(app: AppSpec, seed: int) -> dict[str, StatefulTask]:
    # Keyed by the app itself (AppSpec hashes by identity): registering another app does not
    # generate this one's tasks again, and an app registered anew under a name is generated anew.
    name = app.name
    out: dict[str, StatefulTask] = {}
    for t in app.tasks(seed) if app.tasks is not None else []:
        if t.task_id in out:
            raise ValueError(f"duplicate stateful task id {t.task_id}")
        if "--" in t.task_id:
            raise ValueError(f"task id {t.task_id}: '--' separates a variant from its task")
        if t.app != name:
            raise ValueError(f"task {t.task_id} of app {name!r} names the app {t.app!r}")
        if not t.task_id.startswith(app.task_id_start):
            raise ValueError(
                f"task {t.task_id} of app {name!r} must start with {app.task_id_start!r}"
                " (set AppSpec.task_prefix when its ids do not start with its name)"
            )
        check_tier(t.task_id, t.targets.get("tier"))
        out[t.task_id] = t
    return out


@lru_cache(maxsize=8)
def _collect(seed: int, version: int) -> dict[str, StatefulTask]:
    # The apps whose content is built per task (the first ones, written by hand) come first: the
    # catalogue (`--list`) and the runs have always listed their tasks in this order.
    first = [a for a in APPS.values() if a.content == "task"]
    out: dict[str, StatefulTask] = {}
    for app in [*first, *(a for a in APPS.values() if a not in first)]:
        for tid, t in _app_tasks(app, seed).items():
            if tid in out:
                raise ValueError(f"duplicate stateful task id {tid}")
            out[tid] = t
    return out
