"""What the executor hands an action's executor, and what it gets back.

`ExecContext` is the only door an action has to the page: the page itself, the
switches, the view the model decided on (for mapping its points), and the `Response` it
fills with what the model is shown besides its note (images, model calls:
`execution/response.py`). `Outcome` is the action's account of what it did; the feedback
stage writes the model's note from it.
`Runnable` is what the executor reads from an action spec (`actions.spec.ActionSpec`
satisfies it), so the executor never needs to know the catalogue.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image
from playwright.async_api import Page

from webfovea.config import Component, HarnessConfig
from webfovea.execution.refs import Printed
from webfovea.execution.response import Response
from webfovea.guardrails.bounds import PointSpace, check_point
from webfovea.types import Action

Point = tuple[float, float]


class View(PointSpace, Protocol):
    """The sent image and the viewport it maps to (satisfied by `observation.capture.Shot`)."""

    @property
    def css_width(self) -> float: ...

    @property
    def css_height(self) -> float: ...

    def to_css(self, x: float, y: float) -> tuple[float, float]: ...

    def to_model(self, x: float, y: float) -> tuple[float, float]: ...


class SecretTyping(Protocol):
    """What an action types secrets through (`execution.secrets.SecretTypist`)."""

    typed: list[str]

    async def type_focused(self, text: str, delay_ms: float = 0) -> str: ...

    async def type_into(self, ref: Any, el: Any, text: str, delay_ms: float = 0) -> str: ...

    def shown(self, text: str) -> str: ...


class Shown(View, Protocol):
    """A capture: the view and the image the model is sent (`observation.capture.Shot`)."""

    @property
    def image(self) -> Image.Image: ...

    # The PNG's hash: two captures with one digest show the same pixels (None: unknown).
    @property
    def digest(self) -> bytes | None: ...


@dataclass
class ExecContext:
    page: Page
    config: HarnessConfig
    view: View
    # What an action keeps between its calls within one task, under a key of its own (goto:
    # the URLs seen so far; find_text: the next match per text).
    state: dict[str, Any] = field(default_factory=dict)
    # Let what the pointer's arrival set off happen (hover handlers, their short timers and
    # transitions), bounded; returns at once when nothing was set off. Given by the executor.
    hover_pause: Callable[[], Awaitable[Any]] | None = None
    # Structured/hybrid modes: the snapshot the model decided on (`observation.snapshot.Snapshot`:
    # `.full` untruncated text, `.nodes` its lines) and the CSS point a `ref` resolved to.
    snapshot: Printed | None = None
    target: Point | None = None
    # The model that answers questions about the screenshot (look, locate; None: no model at
    # hand, e.g. a bare Harness without vision_model; look then shows the screenshot).
    vision: Vision | None = None
    # What this action tells the model besides its note and what its step record keeps
    # (images, attachments, model calls, notes); the executor hands it on in `Outcome.response`.
    response: Response = field(default_factory=Response)
    # The action names a secret: its text is typed through this (execution/secrets.py), which
    # puts each value only into the field it was checked for. None: plain keystrokes.
    typist: SecretTyping | None = None

    def on(self, c: Component) -> bool:
        return self.config.on(c)

    async def type_text(self, text: str) -> str:
        """Type `text` into the focused element; '' when all of it went, else why typing stopped."""
        if self.typist is not None:
            return await self.typist.type_focused(text)
        await self.page.keyboard.type(text)
        return ""

    async def pause_for_hover(self) -> None:
        if self.hover_pause is not None:
            await self.hover_pause()

    def css(self, point: Any, what: str = "start_box") -> tuple[float, float]:
        """Map a model point to CSS pixels; OutOfBounds for points outside the sent image.
        A target named by reference was resolved to CSS pixels already."""
        if what == "start_box" and self.target is not None:
            return self.target
        return self.view.to_css(*check_point(self.view, point, what))


@dataclass
class Outcome:
    """What an executor did. Feedback is written from this, never from the page directly."""

    ok: bool = True
    note: str = ""  # action-specific feedback (read-back, option list, read_text output ...)
    point: Point | None = None  # CSS pixels where a pointer action landed
    points: list[Point] = field(default_factory=list)
    navigated: bool = False  # the action is expected to navigate (back, reload, Enter)
    check_change: bool = True  # compare fingerprints and say so when nothing changed
    done: bool = False
    answer: str | None = None
    refused: bool = False  # a guardrail inside the action refused it (blocked key, no CAPTCHA)
    # What the model is shown besides the note and what the step record keeps: the action's
    # `ctx.response`, set by the executor (empty for a refusal).
    response: Response = field(default_factory=Response)


class Vision(Protocol):
    """The model that answers `look` and `locate` (`observation.vision.VisionPort`): a separate
    vision model when one is configured (`--vision-model`), else the task's own model."""

    @property
    def separate(self) -> bool: ...

    async def view(self, grid: bool = False) -> tuple[Image.Image, View]:
        """(the image to show, the capture it came from) of the current viewport;
        with `grid`, the 16x12 localisation grid is drawn over the image."""
        ...

    async def viewport(self) -> tuple[float, float]:
        """The CSS viewport size now."""
        ...

    async def ask(
        self, purpose: str, system: str, prompt: str, image: Image.Image
    ) -> tuple[str, dict[str, Any]]:
        """The model's reply text to one question about `image`, and the call's record."""
        ...


class Capture(Protocol):
    """Takes the next observation's capture (`observation.capture.Screen.capture`)."""

    def __call__(self) -> Awaitable[Shown]: ...


class Runnable(Protocol):
    """The fields of an action spec the executor acts on."""

    @property
    def name(self) -> str: ...

    @property
    def budget(self) -> int | None: ...

    @property
    def pointer(self) -> bool: ...

    @property
    def watch(self) -> bool: ...

    @property
    def text_hash(self) -> str: ...

    @property
    def dom_event(self) -> str | None: ...

    @property
    def targets(self) -> bool: ...

    @property
    def needs_target(self) -> bool: ...

    @property
    def secret_params(self) -> tuple[str, ...]: ...

    @property
    def execute(self) -> Callable[[ExecContext, Action], Awaitable[Outcome]]: ...
