"""Vision mode (the paper's harness): the model sees screenshots and names a point on them."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from webfovea.models.base import ModelInput
from webfovea.observation import snapshot as snapshots
from webfovea.observation.history import History
from webfovea.observation.modes.base import ObservationMode, Seen, held_image, with_unchanged


@dataclass(frozen=True)
class VisionMode(ObservationMode):
    def remember(
        self, history: History, reply: str, image: Image.Image, snapshot: snapshots.Snapshot | None, step: int
    ) -> None:
        history.add(reply, image)

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        # The window of the last screenshots, the current one last (or a sentence when it did not change).
        current = held_image(history, seen)
        return history.model_input(
            system=seen.system,
            task=seen.task,
            current=current,
            feedback=with_unchanged(seen.feedback, history.held),
            step=seen.step,
        )


MODE = VisionMode(
    name="vision",
    summary="screenshots; targets are points on the image (the paper's harness)",
    image=True,
    snapshot=False,
    refs=False,
    points=True,
    intro="You see screenshots of a browser page at a fixed size",
)
