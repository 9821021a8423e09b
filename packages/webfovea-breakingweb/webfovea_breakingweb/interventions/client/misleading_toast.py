"""client/misleading_toast: the first click on the task's submit button never reaches the app
(a capture-phase listener stops it) and the page draws a "Saved." toast in the app's own status
area, as an optimistic UI does. Nothing was sent, nothing is stored. Verification: only a
re-read of the list shows the change missing.

Real-world counterpart: the misleading "Saved" toast of seed 003 (Table 1, verification; §2.1:
"a forged 'Saved' toast that did not actually mutate state"): an optimistic confirmation drawn
before, or instead of, a request that never went out.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext, Step, submit_index

TOAST = "Saved."


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"swallow": {"selector": ctx.task.targets["submit"], "clicks": [1], "toast": TOAST}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)  # the careful agent's submit is done when the list shows the record
    return [*plan[:i], {**plan[i], "expect": task.targets["readback"]}, *plan[i + 1 :]]


FAMILY = Family(
    name="client/misleading_toast",
    layer="client",
    primitive="verification",
    summary="the first submit click is stopped in the page, which draws a 'Saved.' toast; nothing is sent",
    counterpart="a misleading 'Saved' toast: an optimistic confirmation for a request that never went out",
    cue="the re-read list lacks the change the toast claims",
    recovery="re-read the list and submit again",
    detect="readback",
    needs=("submit", "submit_step", "readback"),
    state_only=True,
    belief=True,
    client=_client,
    recover=_recover,
)
