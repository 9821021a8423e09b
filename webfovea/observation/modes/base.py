"""The shape of an observation mode (registered in observation/modes/__init__.py).

A mode owns three things the harness asks it for, and nothing else differs between modes:
what it takes beside the screenshot at each observation (`observe`: the AI snapshot, or
nothing), what the history keeps of a step (`remember`), and the model input it builds
(`model_input`) from what the harness knows at that moment (`Seen`). Its flags tell the
catalogue and the prompt which actions it offers and how a target is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image
from playwright.async_api import Page

from webfovea.config import HarnessConfig
from webfovea.execution.response import Response
from webfovea.models.base import ModelInput
from webfovea.observation import snapshot as snapshots
from webfovea.observation.history import History


class ToModel(Protocol):
    """A capture's mapping from CSS pixels of the viewport to the coordinates the model writes
    (observation/capture.py `Shot`)."""

    def to_model(self, x: float, y: float) -> tuple[float, float]: ...


@dataclass
class Seen:
    """What the harness holds when the model is asked to decide (the input of `model_input`)."""

    system: str  # the generated system prompt (text grammar)
    task: str
    step: int
    feedback: str | None  # the note about the last action
    image: Image.Image | None = None  # the current screenshot as sent (None before the first observation)
    snapshot: str | None = None  # the snapshot text as shown (None when the mode took none)
    # What the last action asked to show (its screenshot request, its attachments).
    response: Response = field(default_factory=Response)
    # unchanged_view_text: the pixel check found nothing changed since the image the model saw last
    unchanged: bool = False
    # The current capture (its mapping between CSS pixels and the model's coordinates): None
    # before the first observation.
    shot: ToModel | None = None


# What the model reads instead of a new image when the view did not change.
UNCHANGED = (
    "The view did not change after your last action: no new screenshot is sent (the last one still "
    "shows the page exactly)."
)


def held_image(history: History, seen: Seen) -> Image.Image | None:
    """The current screenshot to send, or None when the view did not change and the model has the
    last one already (the history then keeps no copy of it: the next image compared is still that one)."""
    if seen.unchanged and not seen.response.screenshot and seen.image is not None and history.images:
        history.held = True
        return None
    history.held = False
    return seen.image


def with_unchanged(feedback: str | None, held: bool) -> str | None:
    if not held:
        return feedback
    return f"{feedback.rstrip()} {UNCHANGED}" if feedback else UNCHANGED


@dataclass(frozen=True)
class ObservationMode:
    name: str
    summary: str  # one line for --help and docs
    image: bool  # its model_input shows the screenshot every step (checked by tests/observation)
    snapshot: bool  # Playwright's AI snapshot is sent to the model (offers find/snapshot/look)
    refs: bool  # pointer and form actions take ref='e12'
    points: bool  # pointer actions show start_box in the prompt
    intro: str  # what the system prompt says the model sees

    async def observe(self, page: Page, config: HarnessConfig) -> snapshots.Snapshot | None:
        """What the mode takes beside the screenshot, after it (none by default)."""
        return None

    def remember(
        self, history: History, reply: str, image: Image.Image, snapshot: snapshots.Snapshot | None, step: int
    ) -> None:
        """What the history keeps of a step: the cleaned reply, and what this mode shows again."""
        raise NotImplementedError

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        """The input the model decides the next step from (before tools and attachments)."""
        raise NotImplementedError


async def take_snapshot(page: Page, config: HarnessConfig) -> snapshots.Snapshot:
    """The snapshot modes' observation: taken after the capture, every step, so the page's
    reference table is the latest snapshot's."""
    return await snapshots.take(page, config)


def snapshot_stub(info: snapshots.Snapshot | None, step: int) -> str:
    """The one line an earlier step's snapshot becomes in the history (only the latest is shown)."""
    if info is None:
        return ""
    return f"[snapshot of {info.url} at step {step} omitted: {info.bytes:,} bytes; only the latest is shown]"
