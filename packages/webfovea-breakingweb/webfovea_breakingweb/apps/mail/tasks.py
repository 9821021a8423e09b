"""The mail client's task generator: templates instantiated from a seed's mailbox.

Every template picks its instances from the same seeded content the server builds
(content.py), so the truth is computed, never written by hand: the answer of a retrieval
task, the obligations (and, by omission, the invariants: nothing else may change) of a state
task, and the oracle plan that reaches it. Instances are drawn with
`rng("mail-tasks", seed, None, template)`; ids are `mail-<template>-NN`. Tiers follow the
number of actions a person needs: easy < 6, medium 6-15, hard > 15.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from webfovea_breakingweb.apps.mail import compose_tasks, retrieval, state_tasks
from webfovea_breakingweb.apps.mail.content import build
from webfovea_breakingweb.apps.mail.state import MailState
from webfovea_breakingweb.engine.determinism import rng
from webfovea_breakingweb.engine.spec import StatefulTask

Template = Callable[[MailState, random.Random], Iterator[StatefulTask]]
TEMPLATES: dict[str, Template] = {**retrieval.TEMPLATES, **state_tasks.TEMPLATES, **compose_tasks.TEMPLATES}


def mailbox(seed: int) -> MailState:
    """The seed's clean mailbox, as the server builds it for every task of that seed
    (`AppSpec.initial` draws from the same generator)."""
    return build(rng("app:mail", seed, None, "content"), seed)


def generate(seed: int) -> list[StatefulTask]:
    state = mailbox(seed)
    out: list[StatefulTask] = []
    for name, template in TEMPLATES.items():
        out += template(state, rng("mail-tasks", seed, None, name))
    return out


def tiers(tasks: list[StatefulTask]) -> dict[str, Any]:
    """How many tasks each template and tier has (for the docs and the tests)."""
    per: dict[str, int] = {}
    for t in tasks:
        key = f"{t.targets.get('template')}:{t.targets.get('tier')}"
        per[key] = per.get(key, 0) + 1
    return per
