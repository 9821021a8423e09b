"""Structured mode (the winner's way, seed 002: docs/glossary.md): the model reads Playwright's AI snapshot and
names targets by reference (`ref='e12'`); visual tools (`look`, `read_text`, `hover`) are
used when the text is not enough. Points stay accepted for targets found visually."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image
from playwright.async_api import Page

from webfovea.config import HarnessConfig
from webfovea.models.base import ModelInput
from webfovea.observation import snapshot as snapshots
from webfovea.observation.history import History
from webfovea.observation.modes.base import ObservationMode, Seen, snapshot_stub, take_snapshot


@dataclass(frozen=True)
class StructuredMode(ObservationMode):
    async def observe(self, page: Page, config: HarnessConfig) -> snapshots.Snapshot | None:
        return await take_snapshot(page, config)

    def remember(
        self, history: History, reply: str, image: Image.Image, snapshot: snapshots.Snapshot | None, step: int
    ) -> None:
        history.add(reply, None, snapshot_stub(snapshot, step))  # no screenshot is shown again

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        # The latest snapshot only; the screenshot just when the last action asked for it (look).
        current = seen.image if seen.response.screenshot else None
        return history.model_input(
            system=seen.system,
            task=seen.task,
            current=current,
            feedback=seen.feedback,
            step=seen.step,
            snapshot=seen.snapshot,
        )


MODE = StructuredMode(
    name="structured",
    summary="Playwright's accessibility snapshot; targets are references like ref='e12'",
    image=False,
    snapshot=True,
    refs=True,
    points=False,
    intro="You read an accessibility snapshot of a browser page (one line per element, with [ref=…] references)",
)
