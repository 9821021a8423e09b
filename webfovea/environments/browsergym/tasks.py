"""webfovea tasks for a BrowserGym spec (`browsergym:miniwob.click-test`, `browsergym:miniwob`,
`browsergym:miniwob.click-*`): one task per BrowserGym task, each naming its environment."""

from __future__ import annotations

from webfovea.environments.browsergym.catalog import task_ids
from webfovea.environments.browsergym.miniwob_site import miniwob_url
from webfovea.task import EnvironmentSpec, Task

PREFIX = "browsergym:"


def is_browsergym_spec(spec: str) -> bool:
    return spec.startswith(PREFIX)


def browsergym_tasks(spec: str, seed: int = 0) -> list[Task]:
    """The tasks of a spec. The instruction is BrowserGym's goal, known once the task is set up;
    until then it says so. The start page is where the benchmark's pages are served."""
    pattern = spec.removeprefix(PREFIX)
    tasks = []
    for task_id in task_ids(pattern):
        bench, _, name = task_id.partition(".")
        website = miniwob_url() + name + ".html" if bench == "miniwob" else ""
        tasks.append(
            Task(
                task_id=task_id,
                task=f"(BrowserGym task {task_id}: its goal is stated when it is set up)",
                website=website,
                category=bench,
                environment=EnvironmentSpec(kind="browsergym", name=task_id, seed=seed),
            )
        )
    return tasks
