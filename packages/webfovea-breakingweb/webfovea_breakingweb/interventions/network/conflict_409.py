"""network/conflict_409: the first write answers 409 Conflict ("the data changed since this
page was loaded; reload and make your change again"); nothing is stored. Backtracking: go
back to the start of the change, redo it on fresh data.

Real-world counterpart: an optimistic-locking conflict (a stale ETag / version; HTTP 409)
when someone else edited the record first (seed 003 Table 1, backtracking: "409 conflict").
"""

from __future__ import annotations

import random

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    after_submit,
    detour,
    submit_index,
)
from webfovea_proving_ground.plan import L, text_has, wait
from webfovea_proving_ground.sessions import Session

BODY = {
    "ok": False,
    "conflict": True,
    "error": "Conflict: the data changed since this page was loaded. Reload it and make your change again.",
}


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return Effect(status=409, body=BODY, note="conflict") if ordinal == 1 else None


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i, start = submit_index(task), int(task.targets.get("redo_from", 0))
    cue = text_has(L(str(task.targets.get("error", "#error"))), "409")
    redo = plan[start : i + 1]
    return after_submit(plan, task, [{**detour(wait(cue), "conflict", cue), "span": 1 + len(redo)}, *redo])


FAMILY = Family(
    name="network/conflict_409",
    layer="network",
    primitive="backtracking",
    summary="the first write answers 409 Conflict; nothing is stored",
    counterpart="optimistic-locking conflict (stale version, HTTP 409)",
    cue="HTTP 409 and the page's error 'the data changed since this page was loaded'",
    recovery="start the change again from the beginning and submit it once more",
    detect="status",
    status=409,
    needs=("write", "submit_step"),
    state_only=True,
    network=NetworkRule("write", _decide),
    recover=_recover,
)
