"""A plan's `trap` step (interventions/base.py `trap`: what a careless agent would do, e.g. answer
"no exact match" under `aliases`) is never taken by the walker, as the oracle never takes it
unless told to misread (oracle/misreads.py `takes_trap`)."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.gym.plan_walker import PlanWalker

CLICK = {"op": "click", "target": {"selector": "#next"}}


def test_the_walker_skips_a_trap_and_acts_on_the_next_step() -> None:
    walker = PlanWalker([{"op": "answer", "value": "", "trap": "no exact match"}, CLICK])
    page: Any = None  # no step before it, no handler: the walker has nothing to look at yet
    assert walker.next_step(page) == CLICK
