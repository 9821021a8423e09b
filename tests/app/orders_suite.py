"""A suite kept outside the package, as the "add a suite" recipe of docs/architecture.md makes
one: a loader over running sites, an optional post-run step, one `Suite` record. The two tasks
order data extracts on the widget lab's order form (the reference comes over a WebSocket)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.suites import Suite, SuiteOptions
from webfovea.task import Task
from webfovea_proving_ground.plan import L, answer, click, fill, text_has
from webfovea_proving_ground.sites.lab_live import ws_reference


def _task(handle: Any, index: int, copies: str) -> Task:
    plan = [
        fill(L("#copies"), copies),
        click(L("#submit"), expect=text_has(L("#result"), "Order accepted")),
        answer(L("#result .ref")),
    ]
    return Task(
        task_id=f"orders-{copies}-copies",
        task_index=index,
        task=f"On the lab's order form, order {copies} copies of the data extract and report the reference.",
        website=handle.url("/lab/ws?delay=300"),
        answer=ws_reference(copies),
        category="form interaction",
        failure_classes=["late_answer"],
        plan=plan,
        site="lab",
    )


def load(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    return [_task(handle, i, copies) for i, copies in enumerate(("3", "7"))]


def after(handle: Any, tasks: list[Task], out_dir: Path) -> list[str]:
    """The post-run step: the references the tasks answered, into one file of the run."""
    answers = {
        t.task_id: json.loads((out_dir / t.task_id / "result.json").read_text())["answer"] for t in tasks
    }
    path = out_dir / "orders.json"
    path.write_text(json.dumps(answers))
    return [f"orders: {len(answers)} references -> {path}"]


SUITE = Suite("orders", "two data-extract orders on the widget lab", load, after=after)
