"""Interventions: one module per family, registered here (`FAMILIES`, by name).

A variant is a family name (`layer/stressor`); docs/breakingweb.md lists them.
"""

from __future__ import annotations

from .base import LAYERS, PRIMITIVES, Effect, Family, IvContext, NetworkRule
from .client import intercepting_overlay, label_shift, swallowed_click
from .network import (
    fabricated_success,
    progressive_delay,
    rate_limit_429,
    session_expiry,
    tail_latency,
    transient_5xx,
)
from .seed import decoys, planted_answer, split_information
from .server import save_drift, scrambled_order

_MODULES = (
    planted_answer,
    decoys,
    split_information,
    scrambled_order,
    save_drift,
    fabricated_success,
    transient_5xx,
    rate_limit_429,
    tail_latency,
    progressive_delay,
    session_expiry,
    intercepting_overlay,
    swallowed_click,
    label_shift,
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
