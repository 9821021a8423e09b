"""The issue tracker's task generator: templates instantiated from a seed's tracker.

Every template picks its instances from the same seeded content the server builds
(content.py) and computes its truth from it: a retrieval task's answer, a state task's
obligations (nothing else may change) and the oracle plan that reaches them. Instances are
drawn with `rng("tracker-tasks", seed, None, template)`; ids are `tracker-<template>-NN`.
Tiers follow the actions a person needs: easy < 6, medium 6-15, hard > 15.
"""

from __future__ import annotations

from webfovea_breakingweb.apps.tracker import retrieval, state_tasks
from webfovea_breakingweb.apps.tracker.content import build
from webfovea_breakingweb.apps.tracker.state import TrackerState
from webfovea_breakingweb.engine.determinism import rng
from webfovea_breakingweb.engine.spec import StatefulTask

TEMPLATES = {**retrieval.TEMPLATES, **state_tasks.TEMPLATES}


def tracker_state(seed: int) -> TrackerState:
    """The seed's clean tracker, as the server builds it for every task of that seed."""
    return build(rng("app:tracker", seed, None, "content"), seed)


def generate(seed: int) -> list[StatefulTask]:
    state = tracker_state(seed)
    out: list[StatefulTask] = []
    for name, template in TEMPLATES.items():
        out += template(state, rng("tracker-tasks", seed, None, name))
    return out
