"""network/shuffled_list: every read of the list answers its rows in another order (seeded per
read), so a row's position says nothing between two looks. State tracking: keep track of
records by what they are, not where they were.

Real-world counterpart: a list without a stable sort (ties ordered by the database's whim,
a feed re-ranked on every load) — seed 003 Table 1, state tracking: "shuffled lists".
"""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_proving_ground.sessions import Session


def shuffled(data: Any, r: random.Random) -> Any:
    """Every list of records (dicts with an `id`) in the answer, in another order."""
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if isinstance(v, list) and len(v) > 1 and all(isinstance(x, dict) and "id" in x for x in v):
                v = list(v)
                before = [x["id"] for x in v]
                for _ in range(5):  # an order that really differs
                    r.shuffle(v)
                    if [x["id"] for x in v] != before:
                        break
            out[k] = v
        return out
    return data


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    base = session.extra.setdefault("shuffle_seed", rng.randrange(2**31))
    r = random.Random(base + ordinal)
    return Effect(transform=lambda data: shuffled(data, r), note=f"shuffled read {ordinal}")


FAMILY = Family(
    name="network/shuffled_list",
    layer="network",
    primitive="state tracking",
    summary="every read of the list answers its rows in another seeded order",
    counterpart="a list without a stable sort (feed re-ranked on every load)",
    cue="rows change places between two reads",
    recovery="find the record by its id and details on every read (no extra action)",
    needs=("list",),
    network=NetworkRule("list", _decide),
)
