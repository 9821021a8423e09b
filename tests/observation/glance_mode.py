"""A throwaway observation mode: the recipe of docs/architecture.md ("Adding an observation
mode") followed once, outside the package.

`glance` shows the model only the current screenshot, in greyscale, and keeps no screenshot in
the history (earlier steps are their replies alone). Written as a module in
`observation/modes/` would be; tests/observation/test_mode_recipe.py registers it with
`modes.register(MODE)`, the public door for modes kept outside the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from webfovea.models.base import ModelInput
from webfovea.observation.history import History
from webfovea.observation.modes.base import ObservationMode, Seen


@dataclass(frozen=True)
class GlanceMode(ObservationMode):
    def remember(self, history: History, reply: str, image: Image.Image, snapshot: Any, step: int) -> None:
        history.add(reply, None)

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        grey = seen.image.convert("L").convert("RGB") if seen.image is not None else None
        return history.model_input(
            system=seen.system, task=seen.task, current=grey, feedback=seen.feedback, step=seen.step
        )


MODE = GlanceMode(
    name="glance",
    summary="the current screenshot only, in greyscale; targets are points on it",
    image=True,
    snapshot=False,
    refs=False,
    points=True,
    intro="You glance at one greyscale screenshot of a browser page at a time",
)
