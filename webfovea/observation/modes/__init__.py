"""Observation modes: what the model is shown and how it names a target.

A mode is one module here exposing `MODE` (an `ObservationMode` that builds the model input
itself: `base.py`), listed in `_MODULES`; the harness looks the configured one up by name.
A mode defined elsewhere (a plug-in, a test) is added with `register`. Everything else —
executor, feedback, budgets, guardrails, records — is shared by all modes.
"""

from __future__ import annotations

from webfovea.observation.modes import hybrid, structured, vision
from webfovea.observation.modes.base import ObservationMode, Seen

__all__ = ["MODES", "ObservationMode", "Seen", "get", "register", "unregister"]

_MODULES = (vision, structured, hybrid)

MODES: dict[str, ObservationMode] = {}


def register(mode: ObservationMode) -> None:
    """Offer `mode` under its name (`config.observation`); a name already taken is an error."""
    if mode.name in MODES:
        raise ValueError(f"observation mode {mode.name!r} is defined twice")
    MODES[mode.name] = mode


def unregister(name: str) -> None:
    MODES.pop(name, None)


for _module in _MODULES:
    register(_module.MODE)


def get(name: str) -> ObservationMode:
    try:
        return MODES[name]
    except KeyError:
        raise ValueError(f"unknown observation mode {name!r}; choose one of: {', '.join(MODES)}") from None
