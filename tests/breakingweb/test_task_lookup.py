"""A session's task is found by generating only the app its id can belong to: every
proving-ground session passes through the BreakingWeb lookup, the built-in suite's too, and
generating every app's tasks cost ~0.8 s of CPU in each process that made one session."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from webfovea_breakingweb import apps
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea_breakingweb.tasks import find_task, stateful_tasks

CALLS: Counter[str] = Counter()


def t_id(tid: str, old: str, new: str) -> str:
    return new + tid[len(old) :]


def _counting(app: AppSpec, name: str, prefix: str = "", task_id: str = "") -> AppSpec:
    def tasks(seed: int) -> list[StatefulTask]:
        CALLS[name] += 1
        made = app.tasks(seed) if app.tasks is not None else []
        if not made:
            return []
        new_id = task_id or t_id(made[0].task_id, app.name, name)
        return [made[0].model_copy(update={"app": name, "task_id": new_id})]

    return replace(
        app, name=name, path=f"/app/{name}", api_base=f"/api/{name}", tasks=tasks, task_prefix=prefix
    )


@pytest.fixture
def counted() -> Iterator[AppSpec]:
    app = _counting(APPS["shop"], "shopcount")
    apps.register(app)
    try:
        yield app
    finally:
        apps.unregister(app)


def test_another_sites_task_generates_no_app(counted: AppSpec) -> None:
    CALLS.clear()
    assert find_task(3, "stats-select-03-nz") is None
    assert find_task(3, "shopcount-nothing-01") is None  # its app's generator runs, once
    assert find_task(3, "shopcount-nothing-02") is None
    assert CALLS == Counter({"shopcount": 1})


def test_a_paired_copy_finds_its_base_task_and_the_whole_list_agrees(counted: AppSpec) -> None:
    every = stateful_tasks(0)
    tid = next(t for t in every if t.startswith("shopcount-"))
    assert find_task(0, f"{tid}--network.transient_5xx") is every[tid]
    assert find_task(0, "req-create-01") is every["req-create-01"]  # a task_prefix that is not the name


def test_a_task_id_outside_its_apps_prefix_is_refused() -> None:
    odd = _counting(APPS["shop"], "oddprefix", task_id="elsewhere-01")
    apps.register(odd)
    try:
        with pytest.raises(ValueError, match="must start with 'oddprefix-'.*task_prefix"):
            find_task(9, "oddprefix-01")
    finally:
        apps.unregister(odd)
