"""The proving ground's suites: one `Suite` record each (builtin, hostile, documents).

They are registered by entry points in the `webfovea.suites` group (pyproject.toml), the same
door an outside suite uses (webfovea/suites.py, docs/plugins.md); BreakingWeb's suite is its
plug-in's (`breakingweb/plugin.py`). Adding a suite is one module with its loader, one `Suite`
record and one entry point; docs/architecture.md, "Adding a suite".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webfovea.suites import Suite, SuiteOptions
from webfovea.task import Task


# -- the built-in suites ------------------------------------------------------------------------
def _builtin(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea_proving_ground.suites.builtin import load_builtin_suite

    return load_builtin_suite(handle, seed=seed)


def _hostile(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea_proving_ground.suites.hostile import load_hostile_suite

    return load_hostile_suite(handle)


def _judge_hostile(handle: Any, tasks: list[Task], out_dir: Path) -> list[str]:
    """Per attack, whether the guard held: judged from the sites' own log, the task folders, the clock."""
    from webfovea_proving_ground.suites.hostile import judge, write_verdicts

    verdicts = judge(handle, tasks, out_dir)
    lines = [f"  {v.attack:<11} {'held' if v.held else 'FAILED'}  {v.evidence}" for v in verdicts]
    path = write_verdicts(out_dir, verdicts)
    return [*lines, f"hostile: {sum(v.held for v in verdicts)}/{len(verdicts)} guards held -> {path}"]


BUILTIN = Suite(
    "builtin", "tasks over the proving-ground sites with exact answers", _builtin, holds_site_tasks=True
)
HOSTILE = Suite(
    "hostile",
    "one task per attack; whether each guard held, judged from the sites' own log",
    _hostile,
    after=_judge_hostile,
)


def _documents(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea_proving_ground.suites.documents import load_documents_suite

    return load_documents_suite(handle, seed)


DOCUMENTS = Suite(
    "documents", "answers only inside PDF, XLSX and CSV downloads, see docs/documents.md", _documents
)
