"""Hybrid mode: the screenshot window of vision mode and the snapshot of structured mode;
a target is a point on the image or a reference, whichever the model finds surer."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image
from playwright.async_api import Page

from webfovea.config import HarnessConfig
from webfovea.models.base import ModelInput
from webfovea.observation import snapshot as snapshots
from webfovea.observation.history import History
from webfovea.observation.modes.base import (
    ObservationMode,
    Seen,
    held_image,
    snapshot_stub,
    take_snapshot,
    with_unchanged,
)


@dataclass(frozen=True)
class HybridMode(ObservationMode):
    async def observe(self, page: Page, config: HarnessConfig) -> snapshots.Snapshot | None:
        return await take_snapshot(page, config)

    def remember(
        self, history: History, reply: str, image: Image.Image, snapshot: snapshots.Snapshot | None, step: int
    ) -> None:
        history.add(reply, image, snapshot_stub(snapshot, step))

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        current = held_image(history, seen)
        return history.model_input(
            system=seen.system,
            task=seen.task,
            current=current,
            feedback=with_unchanged(seen.feedback, history.held),
            step=seen.step,
            snapshot=seen.snapshot,
        )


MODE = HybridMode(
    name="hybrid",
    summary="screenshots and the accessibility snapshot; targets are points or references",
    image=True,
    snapshot=True,
    refs=True,
    points=True,
    intro="You see screenshots of a browser page at a fixed size and its accessibility snapshot "
    "(one line per element, with [ref=…] references)",
)
