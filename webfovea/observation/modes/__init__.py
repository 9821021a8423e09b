"""Observation modes: what the model is shown and how it names a target.

A mode is one module here exposing `MODE`, registered in `_MODULES`. Everything else —
executor, feedback, budgets, guardrails, records — is shared by all modes.
"""

from __future__ import annotations

from webfovea.observation.modes.base import ObservationMode

__all__ = ["MODES", "ObservationMode", "get"]


def _register() -> dict[str, ObservationMode]:
    from webfovea.observation.modes import hybrid, structured, vision

    return {m.MODE.name: m.MODE for m in (vision, structured, hybrid)}


MODES: dict[str, ObservationMode] = _register()


def get(name: str) -> ObservationMode:
    try:
        return MODES[name]
    except KeyError:
        raise ValueError(f"unknown observation mode {name!r}; choose one of: {', '.join(MODES)}") from None
