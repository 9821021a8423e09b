"""The proving ground as a webfovea plug-in: it announces the registries it owns (sites, plan
ops, hostile attacks) so `webfovea plugins` lists what is in them. Its suites and its model
kind (the oracle) register through their own entry points (pyproject.toml)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from webfovea.plugins import hookimpl


@hookimpl
def webfovea_registries() -> Sequence[Any]:
    from webfovea_proving_ground.oracle.ops.catalog import OPS
    from webfovea_proving_ground.sites import SITE_MODULES, site_modules
    from webfovea_proving_ground.suites.attack import ATTACKS
    from webfovea_proving_ground.suites.hostile import load_hostile_suite  # noqa: F401 - registers the attacks

    site_modules()  # the built-in sites are registered on first use
    return (SITE_MODULES, OPS, ATTACKS)
