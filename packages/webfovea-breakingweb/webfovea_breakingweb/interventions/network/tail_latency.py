"""network/tail_latency: the first matching call takes 4 s; the page shows "Loading…".
Patience: wait for the answer instead of acting again on the stale page.

Real-world counterpart: a slow network or server (tail latency).
"""

from __future__ import annotations

import random

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    detour,
    strip_expect,
    submit_index,
)
from webfovea_proving_ground.plan import L, visible, wait
from webfovea_proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return Effect(delay_ms=4000, note="4000 ms") if ordinal == 1 else None


def patient(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    until = plan[i].get("expect")
    # Marked: a misreading oracle may not wait for the answer it is shown loading.
    waiting = [detour(wait(until), "wait", visible(L("#busy")))] if until else []
    return [*plan[:i], strip_expect(plan[i]), *waiting, *plan[i + 1 :]]


FAMILY = Family(
    name="network/tail_latency",
    layer="network",
    primitive="patience",
    summary="the first matching call is answered after 4 s",
    counterpart="a slow network or server (tail latency)",
    cue="'Loading…' and aria-busy for seconds",
    recovery="wait for the answer",
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
    recover=patient,
)
