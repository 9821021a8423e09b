"""Observation modes: what the model is shown and how it names a target.

A mode is one module here exposing `MODE` (an `ObservationMode` that builds the model input
itself: `base.py`), listed in `_MODULES`; the harness looks the configured one up by name.
A mode defined elsewhere is added with `register` (in code) or by an entry point in the
`webfovea.observation_modes` group naming its `ObservationMode` (docs/plugins.md). Everything else —
executor, feedback, budgets, guardrails, records — is shared by all modes.
"""

from __future__ import annotations

from webfovea.observation.modes import elements, hybrid, structured, vision
from webfovea.observation.modes.base import ObservationMode, Seen
from webfovea.plugins import BUILTIN, Origin, Registry, UnknownName

__all__ = ["MODES", "ObservationMode", "Seen", "get", "register", "unregister"]

_MODULES = (vision, structured, hybrid, elements)

ENTRY_POINT_GROUP = "webfovea.observation_modes"
MODES: Registry[ObservationMode] = Registry("observation mode", ENTRY_POINT_GROUP, ObservationMode)


def register(mode: ObservationMode) -> None:
    """Offer `mode` under its name (`config.observation`); a name another mode holds is an error."""
    MODES.register(mode)


def unregister(name: str) -> None:
    MODES.unregister(name)


for _module in _MODULES:
    MODES.register(_module.MODE, origin=Origin(BUILTIN))


def get(name: str) -> ObservationMode:
    try:
        return MODES.require(name)
    except UnknownName as e:
        raise ValueError(str(e)) from None
