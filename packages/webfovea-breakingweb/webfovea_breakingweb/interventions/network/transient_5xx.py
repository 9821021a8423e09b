"""network/transient_5xx: the first one or two matching calls answer 503 "temporarily
unavailable"; the page shows the error. Patience: try again.

Real-world counterpart: a transient server outage (HTTP 503).
"""

from __future__ import annotations

import random

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_proving_ground.sessions import Session

BODY = {"ok": False, "error": "Service temporarily unavailable. Please try again."}


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    k = session.extra.setdefault("503_count", rng.choice([1, 2]))
    return Effect(status=503, body=BODY, note=f"503 {ordinal}/{k}") if ordinal <= k else None


FAMILY = Family(
    name="network/transient_5xx",
    layer="network",
    primitive="patience",
    summary="the first 1-2 matching calls answer 503 with a retry message",
    counterpart="a transient server outage (HTTP 503)",
    cue="HTTP 503 and the page's error 'try again'",
    recovery="try again",
    detect="status",
    status=503,
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
)
