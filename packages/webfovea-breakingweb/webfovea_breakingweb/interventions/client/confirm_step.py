"""client/confirm_step: a click on the submit/apply button opens a confirmation dialog ("Send
this change?"); only its "Yes, continue" goes through. Planning: the plan gets a step it did
not have.

Added by this project (not in the seed's catalogue text). Real-world counterpart: an "Are you
sure?" confirmation modal added in front of an action.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Family,
    IvContext,
    Step,
    after_submit,
    detour,
    submit_index,
)
from webfovea_proving_ground.plan import L, click, visible


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"confirm": {"selector": ctx.task.targets["submit"]}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    yes = click(L("#iv-confirm-dialog .iv-yes"), expect=plan[submit_index(task)].get("expect"))
    return after_submit(plan, task, [detour(yes, "dialog", visible(L("#iv-confirm-dialog")))])


FAMILY = Family(
    name="client/confirm_step",
    layer="client",
    primitive="planning",
    summary="the submit/apply click opens a confirmation dialog; only its 'Yes, continue' sends it",
    counterpart="an 'Are you sure?' confirmation modal",
    cue="a dialog 'Send this change?' after the click",
    recovery="answer the dialog with 'Yes, continue'",
    own=True,
    needs=("submit", "submit_step"),
    client=_client,
    recover=_recover,
)
