"""Interventions: one module per family, registered here (`FAMILIES`, by name).

A variant is a family name (`layer/stressor`); docs/breakingweb.md lists them. Adding a family
is one module in its layer's folder, named after it, with its `FAMILY`, plus one entry in
`_MODULES`. A family module kept outside this package (a plug-in, a test) joins with
`register(module)` before the sites make sessions, and leaves with `unregister(module)`.
"""

from __future__ import annotations

from types import ModuleType

from webfovea.plugins import BUILTIN, Origin, Registry

from .base import LAYERS, PRIMITIVES, Effect, Family, IvContext, NetworkRule
from .client import (
    broken_layout,
    confirm_step,
    cookie_banner,
    hidden_prerequisite,
    intercepting_overlay,
    label_shift,
    misleading_toast,
    restricted_affordance,
    swallowed_click,
)
from .network import (
    conflict_409,
    contradictory_update,
    fabricated_success,
    missing_prerequisite,
    progressive_delay,
    rate_limit_429,
    session_expiry,
    shuffled_list,
    silent_failure,
    tail_latency,
    transient_5xx,
    truncated_response,
)
from .seed import aliases, decoys, phishing_content, planted_answer, split_information
from .server import hidden_labels, save_drift, scrambled_timestamps, single_field_corruption

# By layer, then the seed's named stressors before the ones this project added (`Family.own`).
_MODULES = (
    planted_answer,
    decoys,
    split_information,
    phishing_content,
    aliases,
    scrambled_timestamps,
    hidden_labels,
    save_drift,
    single_field_corruption,
    fabricated_success,
    transient_5xx,
    rate_limit_429,
    tail_latency,
    progressive_delay,
    session_expiry,
    conflict_409,
    silent_failure,
    contradictory_update,
    shuffled_list,
    missing_prerequisite,
    truncated_response,
    intercepting_overlay,
    swallowed_click,
    label_shift,
    hidden_prerequisite,
    restricted_affordance,
    broken_layout,
    misleading_toast,
    cookie_banner,
    confirm_step,
)


def _named_by_layer(items: dict[str, Family]) -> None:
    for fam in items.values():
        if fam.layer not in LAYERS or fam.name.split("/", 1)[0] != fam.layer:
            raise ValueError(f"family {fam.name!r} must be named layer/stressor, with a layer of {LAYERS}")


def _family_of(obj: object, _ep_name: str) -> list[Family] | None:
    fam = getattr(obj, "FAMILY", None)  # an entry point may name the family's module
    return [fam] if isinstance(fam, Family) else None


ENTRY_POINT_GROUP = "webfovea.interventions"
# A plug-in's entry point names the family's module (its FAMILY) or the Family itself.
FAMILIES: Registry[Family] = Registry(
    "intervention family", ENTRY_POINT_GROUP, Family, expand=_family_of, check=_named_by_layer
)
for _m in _MODULES:
    FAMILIES.register(_m.FAMILY, origin=Origin(BUILTIN))


def register(module: ModuleType) -> None:
    """Add a family module's `FAMILY`; sessions made afterwards may name it as their variant."""
    fam: Family = module.FAMILY
    held = FAMILIES.get(fam.name)
    if held is not None and held is not fam:
        raise ValueError(f"intervention family {fam.name!r} is defined twice")
    FAMILIES.register(fam)


def unregister(module: ModuleType) -> None:
    """Take a module added with `register` out again (the built-in ones stay)."""
    FAMILIES.unregister(module.FAMILY)


class UnknownFamily(ValueError):
    pass


def official_families() -> list[Family]:
    """The seed's catalogue: every registered family but this project's extensions."""
    return [f for f in FAMILIES.values() if f.official]


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
    "official_families",
    "register",
    "unregister",
]
