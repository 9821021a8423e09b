"""network/fabricated_success: the first write answers 200 with the app's real success body,
but the state is left as it was. Verification: the list (re-read from the server) lacks it.

Real-world counterpart: a misleading 'Saved' confirmation for a write that was not stored (a forged or cached 200).
"""

from __future__ import annotations

import random

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    submit_index,
)
from webfovea_proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return Effect(forge=True, note="success answered, state restored") if ordinal == 1 else None


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)  # the careful agent's submit is done when the list shows the record
    return [*plan[:i], {**plan[i], "expect": task.targets["readback"]}, *plan[i + 1 :]]


FAMILY = Family(
    name="network/fabricated_success",
    layer="network",
    primitive="verification",
    summary="the first write answers 200 with the real success body; nothing is stored",
    counterpart="a misleading 'Saved' confirmation for a write that was not stored (a forged or cached 200)",
    cue="the re-read list lacks the change the confirmation claims",
    recovery="re-read the list and submit again",
    detect="readback",
    needs=("write", "submit_step", "readback"),
    state_only=True,
    belief=True,
    network=NetworkRule("write", _decide),
    recover=_recover,
)
