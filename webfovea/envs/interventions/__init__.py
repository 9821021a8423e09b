"""Interventions: one module per family, registered here (`FAMILIES`, by name).

A variant is a family name (`layer/stressor`); docs/breakingweb.md lists them.
"""

from __future__ import annotations

from . import (
    client_label_shift,
    client_overlay,
    client_swallowed_click,
    network_fabricated_success,
    network_progressive_delay,
    network_rate_limit,
    network_session_expiry,
    network_tail_latency,
    network_transient_5xx,
    seed_decoys,
    seed_planted_answer,
    seed_split_information,
    server_save_drift,
    server_scrambled_order,
)
from .base import LAYERS, PRIMITIVES, Effect, Family, IvContext, NetworkRule

_MODULES = (
    seed_planted_answer,
    seed_decoys,
    seed_split_information,
    server_scrambled_order,
    server_save_drift,
    network_fabricated_success,
    network_transient_5xx,
    network_rate_limit,
    network_tail_latency,
    network_progressive_delay,
    network_session_expiry,
    client_overlay,
    client_swallowed_click,
    client_label_shift,
)
FAMILIES: dict[str, Family] = {m.FAMILY.name: m.FAMILY for m in _MODULES}


class UnknownFamily(ValueError):
    pass


def family(name: str) -> Family:
    """The family named `name` (also accepts the short name after the slash)."""
    if name in FAMILIES:
        return FAMILIES[name]
    by_short = [f for f in FAMILIES.values() if f.short == name]
    if len(by_short) == 1:
        return by_short[0]
    raise UnknownFamily(f"unknown intervention family {name!r}; known: {', '.join(FAMILIES)}")


__all__ = [
    "FAMILIES",
    "LAYERS",
    "PRIMITIVES",
    "Effect",
    "Family",
    "IvContext",
    "NetworkRule",
    "UnknownFamily",
    "family",
]
