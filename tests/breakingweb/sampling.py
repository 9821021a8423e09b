"""The small samples the tests run of the apps' task catalogues.

Every template of every app once is the issue's stratified sample; it is a benchmark command
(`webfovea bench breakingweb --seed 0 --only '*-01'`), not
a test: at 3-5 s a task it alone would take minutes of the suite. The tests run one template per
tier per app — the first easy, medium and hard one — so every app's retrieval and state-changing
workflows and its longest plans still run in Chromium on every change.
"""

from __future__ import annotations

from webfovea_breakingweb.tasks import stateful_tasks


def tier_sample(*apps: str) -> list[str]:
    """The first instance of the first template of each tier, per app (seed 0), sorted."""
    picked: dict[tuple[str, str], str] = {}
    for t in stateful_tasks(0).values():
        if t.app in apps:
            picked.setdefault((t.app, t.targets["tier"]), t.task_id)
    return sorted(picked.values())
