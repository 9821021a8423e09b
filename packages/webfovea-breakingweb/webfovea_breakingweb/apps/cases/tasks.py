"""The case mailbox's tasks, written by hand, per seed, from the same seeded state the server
builds (`APP.initial`): a row action on one seeded case (resolve it; move it, the folder picked
in the row's select first). Their `targets` are documented in webfovea_breakingweb/tasks.py."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import SpaApp, StatefulTask
from webfovea_proving_ground.plan import L, answer, click, select, text_has, value_is


def _case_task(
    case: Any,
    task_id: str,
    action: str,
    doing: str,
    field: str,
    value: str,
    choose: str | None = None,
) -> StatefulTask:
    """One case-mailbox task: a row action on a seeded `case` (`choose`: the option picked in the
    row's select first), with its obligation, targets and plan."""
    api = "/api/cases"
    row = f'#records tr[data-id="{case.id}"]'
    plan = [
        click(L(f"{row} .act-{action}"), expect=text_has(L(f"{row} td.{field}"), value)),
        answer(L(f"{row} td.id")),
    ]
    if choose is not None:
        plan.insert(
            0,
            select(
                L(f"{row} .choose-{action}"), choose, expect=value_is(L(f"{row} .choose-{action}"), value)
            ),
        )
    route = ["POST", f"{api}/records/{case.id}/{action}"]
    return StatefulTask(
        task_id=task_id,
        app="cases",
        failure_classes=["select"] if choose else [],
        instruction=(
            f"{doing.format(case=case)} Change nothing else. Report the case number. If asked to sign in, "
            "the user name is analyst and the password portal-2025."
        ),
        obligations=[{"entity": "records", "op": "update", "id": case.id, "fields": {field: value}}],
        plan=plan,
        targets={
            "main": route,
            "write": route,
            "list": ["GET", f"{api}/records"],
            "submit": f".act-{action}",
            "submit_step": len(plan) - 2,
            "redo_from": 0,
            "decoy_of": case.id,
            "readback": text_has(L(f"{row} td.{field}"), value),
        },
    )


def tasks(app: SpaApp, seed: int) -> list[StatefulTask]:
    """The case mailbox's tasks for `seed`."""
    about = "the case from {case.sender} about “{case.subject}”"

    def case(task_id: str, index: int) -> Any:  # the `index`-th case of the task's seeded state
        return app.initial(task_id, seed).records[index]

    return [
        _case_task(
            case("case-resolve-01", 4),
            "case-resolve-01",
            "resolve",
            f"Mark {about} as resolved.",
            "status",
            "resolved",
        ),
        _case_task(
            case("case-move-01", 2),
            "case-move-01",
            "move",
            f"Move {about} to the Billing folder.",
            "folder",
            "billing",
            choose="Billing",
        ),
    ]
