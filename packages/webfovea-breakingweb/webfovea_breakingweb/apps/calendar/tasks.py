"""The calendar's task generator: templates instantiated from a seed's calendar.

Every template picks its instances from the same seeded content the server builds
(content.py) and computes its truth with the server's own functions (views.py, times.py): a
retrieval task's answer and request obligations, a state task's obligations (nothing else
may change) and the oracle plan that reaches them. Instances are drawn with
`rng("calendar-tasks", seed, None, template)`; ids are `calendar-<template>-NN`. Tiers follow
the actions a person needs: easy < 6, medium 6-15, hard > 15.
"""

from __future__ import annotations

from webfovea_breakingweb.apps.calendar import retrieval, state_tasks
from webfovea_breakingweb.apps.calendar.content import build
from webfovea_breakingweb.apps.calendar.state import CalendarState
from webfovea_breakingweb.engine.determinism import rng
from webfovea_breakingweb.engine.spec import StatefulTask

TEMPLATES = {**retrieval.TEMPLATES, **state_tasks.TEMPLATES}


def calendar_state(seed: int) -> CalendarState:
    """The seed's clean calendar, as the server builds it for every task of that seed."""
    return build(rng("app:calendar", seed, None, "content"), seed)  # type: ignore[return-value]


def generate(seed: int) -> list[StatefulTask]:
    state = calendar_state(seed)
    out: list[StatefulTask] = []
    for name, template in TEMPLATES.items():
        out += template(state, rng("calendar-tasks", seed, None, name))
    return out
