"""client/hidden_prerequisite: the submit/apply button does nothing until a box under a
collapsed "More options" section next to it is ticked ("I confirm these details are
correct"); a click before says so there. Exploration: open the section, tick the box.

Real-world counterpart: a required consent checkbox hidden in a collapsed section (seed 003
Table 1, exploration: "hidden prerequisite"). The box is page state only: the task's success
criterion does not change.
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
    return {"confirm_box": {"selector": ctx.task.targets["submit"]}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    cue = visible(L("#iv-more-options"))
    tick = [
        {
            **detour(
                click(L("#iv-more-options summary"), expect=visible(L("#iv-confirm"))), "prerequisite", cue
            ),
            "span": 2,
        },
        click(L("#iv-confirm"), expect=visible(L("#iv-confirm-ok"))),
    ]
    return [*plan[:i], *tick, *plan[i:]]


FAMILY = Family(
    name="client/hidden_prerequisite",
    layer="client",
    primitive="exploration",
    summary="the submit works only after ticking a box inside a collapsed 'More options' section",
    counterpart="a required consent checkbox hidden in a collapsed section",
    cue="the click does nothing but show 'confirm the details under More options first'",
    recovery="open More options, tick the box, submit",
    needs=("submit", "submit_step"),
    client=_client,
    recover=_recover,
)
