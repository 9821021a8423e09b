"""network/tail_latency: the first matching call takes 4 s; the page shows "Loading…".
Patience: wait for the answer instead of acting again on the stale page."""

from __future__ import annotations

import random

from webfovea.proving_ground.breakingweb.engine.spec import StatefulTask
from webfovea.proving_ground.breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    strip_expect,
    submit_index,
)
from webfovea.proving_ground.plan import wait
from webfovea.proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random) -> Effect | None:
    return Effect(delay_ms=4000, note="4000 ms") if ordinal == 1 else None


def patient(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    until = plan[i].get("expect")
    return [*plan[:i], strip_expect(plan[i]), *([wait(until)] if until else []), *plan[i + 1 :]]


FAMILY = Family(
    name="network/tail_latency",
    layer="network",
    primitive="patience",
    summary="the first matching call is answered after 4 s",
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
    recover=patient,
)
