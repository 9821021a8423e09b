"""The built-in tasks, one builder per site. Answers are computed from the seeded data the
pages render; every answer depends on the state the agent reaches (a wrong filter, country
or document shows a different value)."""

from typing import Any

from webfovea.task import Task
from webfovea_proving_ground.suites.lab import lab_tasks
from webfovea_proving_ground.suites.obstacles import ObstacleTasks
from webfovea_proving_ground.suites.sources import SourceTasks
from webfovea_proving_ground.suites.stats import StatsTasks
from webfovea_proving_ground.suites.structure import structure_tasks


class _Suite(StatsTasks, SourceTasks, ObstacleTasks):
    """All builders over one seeded world."""


def build_tasks(handle: Any, seed: int) -> list[Task]:
    s = _Suite(handle, seed)
    s.stats_select_tasks()
    s.stats_autocomplete_tasks()
    s.stats_date_tasks()
    s.stats_prefilled_tasks()
    s.compare_tasks()
    s.dashboard_tasks()
    s.rankings_tasks()
    s.filings_tasks()
    s.cross_site_tasks()
    s.gate_tasks()
    s.slow_tasks()
    s.consent_tasks()
    s.form_tasks()
    lab_tasks(s.add)
    structure_tasks(s.add, seed)
    return s.tasks
