"""client/restricted_affordance: the task's submit/apply button is not shown where it usually
is; it is reachable only through a "More actions" menu next to where it was. Exploration:
find the other way to the same action.

Real-world counterpart: an action moved into an overflow ("⋯") menu by a redesign or a narrow
layout (seed 003 Table 1, exploration: "restricted affordance set").
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Family,
    IvContext,
    Step,
    detour,
    submit_index,
)
from webfovea_proving_ground.plan import L, click, visible


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"restrict": {"selector": ctx.task.targets["submit"]}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    menu = detour(click(L(".iv-more"), expect=visible(plan[i]["target"])), "menu", visible(L(".iv-more")))
    return [*plan[:i], menu, *plan[i:]]


FAMILY = Family(
    name="client/restricted_affordance",
    layer="client",
    primitive="exploration",
    summary="the submit/apply button is hidden; a 'More actions' menu beside its place shows it",
    counterpart="an action moved into an overflow menu by a redesign",
    cue="the usual button is missing; a 'More actions' button stands in its place",
    recovery="open More actions, then use the action",
    needs=("submit", "submit_step"),
    client=_client,
    recover=_recover,
)
