"""A third party's plug-in, as the "add a plug-in" recipe (docs/plugins.md) writes one: a suite
with its own option (`--copies`), its own summary block, report section and end-of-run line —
and, in the same distribution, a broken suite entry point, a judge method claiming a built-in's
name and a hook plug-in that does not import. Written into a throwaway distribution by the
tests (its dist-info names these entry points); nothing in webfovea names it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from webfovea.judge.catalog import get as judge_method
from webfovea.plugins import SuiteOption, SummarySection, hookimpl
from webfovea.suites import Suite, SuiteError, SuiteOptions
from webfovea.task import Task
from webfovea_proving_ground.plan import L, answer, click, fill, text_has
from webfovea_proving_ground.sites.lab_live import ws_reference


def _task(handle: Any, index: int, copies: str) -> Task:
    return Task(
        task_id=f"orders-{copies}-copies",
        task_index=index,
        task=f"On the lab's order form, order {copies} copies of the data extract and report the reference.",
        website=handle.url("/lab/ws?delay=300"),
        answer=ws_reference(copies),
        category="form interaction",
        plan=[
            fill(L("#copies"), copies),
            click(L("#submit"), expect=text_has(L("#result"), "Order accepted")),
            answer(L("#result .ref")),
        ],
        site="lab",
        orders_copies=copies,
    )


def _load(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    copies = options.get("copies") or ("3", "7")
    return [_task(handle, i, c) for i, c in enumerate(copies)]


def _check(options: SuiteOptions) -> None:
    if not all(c.isdigit() for c in options.get("copies") or ()):
        raise SuiteError("--copies takes whole numbers, e.g. --copies 3,7")


SUITE = Suite(
    "orders",
    "data-extract orders on the widget lab (a third party's suite)",
    _load,
    accepts=frozenset({"copies"}),
    check_options=_check,
    run_meta=lambda o: {"copies": list(o.get("copies") or ())},
    catalogue=lambda seed: {"note": "two orders unless --copies says otherwise"},
)

# A judge method under a name a built-in holds: refused, the built-in kept.
RULE_CLAIM = dataclasses.replace(judge_method("rule"), help="a third party's rule judge")


@hookimpl
def webfovea_suite_options() -> Sequence[SuiteOption]:
    return (SuiteOption("copies", ("--copies",), "orders: comma-separated copies to order.", kind="list"),)


@hookimpl
def webfovea_summary_section(per_task: dict[str, Any], tasks: list[Any]) -> SummarySection | None:
    mine = [t for t in tasks if (t.model_extra or {}).get("orders_copies")]
    if not mine:
        return None
    passed = sum(1 for t in mine if per_task[t.task_id].passed)
    return SummarySection("orders", {"orders": len(mine), "references_right": passed})


@hookimpl
def webfovea_report_section(summary: dict[str, Any], escape: Callable[[Any], str]) -> str | None:
    block = (summary.get("extensions") or {}).get("orders")
    return f"<h2 id=orders>Orders</h2><p>{escape(block['references_right'])} right</p>" if block else None


@hookimpl
def webfovea_terminal_summary(summary: dict[str, Any]) -> Sequence[str] | None:
    block = (summary.get("extensions") or {}).get("orders")
    return [f"orders: {block['references_right']}/{block['orders']} references right"] if block else None
