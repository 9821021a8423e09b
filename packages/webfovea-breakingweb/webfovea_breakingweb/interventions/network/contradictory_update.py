"""network/contradictory_update: after the first write, the next read of the list answers the
list as it was before it (a stale replica), while the write itself succeeded and said so.
State tracking: the change is done although one view says it is pending; a fresh read shows
it. Submitting again duplicates or repeats it.

Real-world counterpart: read-after-write inconsistency (a lagging read replica or cache)
— seed 003 Table 1, state tracking: "contradictory updates".
"""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    strip_expect,
    submit_index,
    trap,
)
from webfovea_proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    kept = session.extra.get("kept", {})
    if target == "write":
        if session.extra.get("stale_served") is None and "list" in kept:
            session.extra["stale_served"] = False  # the next read of the list is the stale one
            return Effect(note="write seen; the next list read is stale")
        return None
    if session.extra.get("stale_served") is False:
        session.extra["stale_served"] = True
        return Effect(status=200, body=kept["list"], note="stale list")
    return Effect(keep="list", note="list read")


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    """Trust the confirmation, not the stale list: the submit expects what the page confirms
    but not the task's readback on the list shown right after (a careful agent that waited
    for the list would submit again: the double submission the family invites). Marked: a
    careless agent that sees the stale list submits once more (a duplicate). The whole
    submit step is repeated (a drag needs its source, a fill its content)."""
    i = submit_index(task)
    again = trap(strip_expect(plan[i]), "resubmit", None)
    sent = {**strip_expect(plan[i]), **_but_readback(plan[i].get("expect"), task.targets.get("readback"))}
    return [*plan[:i], sent, again, *plan[i + 1 :]]


def _but_readback(expect: Any, readback: Any) -> Step:
    """The submit's expectation without the readback conditions (`{}`: none is left)."""
    if not expect or expect == readback:
        return {}
    if isinstance(expect, dict) and isinstance(expect.get("all"), list):
        rest = [e for e in expect["all"] if e != readback]
        return {} if not rest else {"expect": rest[0] if len(rest) == 1 else {"all": rest}}
    return {"expect": expect}


FAMILY = Family(
    name="network/contradictory_update",
    layer="network",
    primitive="state tracking",
    summary="after the first write the next list read is the list from before it (a stale replica)",
    counterpart="read-after-write inconsistency (lagging replica or cache)",
    cue="the confirmation says saved, the list shown right after does not; a reload does",
    recovery="re-read before acting again; do not submit twice",
    needs=("write", "list", "submit_step"),
    state_only=True,
    network=NetworkRule(("write", "list"), _decide),
    recover=_recover,
)
