"""The built-in task suite: tasks over the proving-ground sites with exact answers and oracle plans.

The tasks are defined in `tasks.py`, their plans with the helpers of `webfovea_proving_ground/plan.py`.
"""

from __future__ import annotations

from typing import Any

from webfovea.task import SessionSpec, Task
from webfovea_proving_ground.plan import (
    CATEGORIES,
    FAILURE_CLASSES,
    POINTER_OPS,
    PlannedTask,
    check_suite,
    first_target,
)
from webfovea_proving_ground.suites.tasks import build_tasks

__all__ = [
    "CATEGORIES",
    "FAILURE_CLASSES",
    "POINTER_OPS",
    "PlannedTask",
    "first_target",
    "load_builtin_suite",
]


def load_builtin_suite(handle: Any, seed: int | None = None) -> list[Task]:
    """The built-in suite for running sites (`handle`: a SitesHandle or anything with `.url()`).

    `seed` defaults to the handle's own seed, so answers match what the pages show.
    """
    own = getattr(handle, "seed", None)
    if seed is None:
        seed = own if own is not None else 0
    elif own is not None and own != seed:
        raise ValueError(f"the sites run with seed {own} but the suite was asked for seed {seed}")
    tasks = build_tasks(handle, seed)
    check_suite(tasks)
    return with_sessions(tasks, handle, seed)


def with_sessions(tasks: list[Task], handle: Any, seed: int) -> list[Task]:
    """Each task bound to a fresh server-side session of the sites (their request log, their
    state) when the handle has a control plane; tasks that already name one keep theirs."""
    control_url = getattr(handle, "control_url", None)
    if not control_url:
        return tasks
    return [
        t
        if t.session is not None
        else t.model_copy(update={"session": SessionSpec(control_url=control_url, seed=seed)})
        for t in tasks
    ]
