"""network/progressive_delay: every matching call is slower than the one before
(1 s, 2 s, 4 s, capped at 5 s). Patience: wait longer each time.

Real-world counterpart: a server slowing down under load.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_breakingweb.interventions.network.tail_latency import patient
from webfovea_proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    ms = min(1000 * 2 ** (ordinal - 1), 5000)
    return Effect(delay_ms=ms, note=f"{ms} ms")


FAMILY = Family(
    name="network/progressive_delay",
    layer="network",
    primitive="patience",
    summary="matching calls answered after 1 s, 2 s, 4 s, ... (at most 5 s)",
    counterpart="a server slowing down under load",
    cue="'Loading…' for longer each time",
    recovery="wait longer each time",
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
    recover=patient,
)
