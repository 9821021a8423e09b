"""The shape of an observation mode (registered in observation/modes/__init__.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ObservationMode:
    name: str
    summary: str  # one line for --help and docs
    image: bool  # the screenshot is sent to the model
    snapshot: bool  # Playwright's AI snapshot is sent to the model
    refs: bool  # pointer and form actions take ref='e12'
    points: bool  # pointer actions show start_box in the prompt
    intro: str  # what the system prompt says the model sees
