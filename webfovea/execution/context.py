"""What the executor hands an action's executor, and what it gets back.

`ExecContext` is the only door an action has to the page: the page itself, the
switches, and the view the model decided on (for mapping its points). `Outcome` is the
action's account of what it did; the feedback stage writes the model's note from it.
`Runnable` is what the executor reads from an action spec (`actions.spec.ActionSpec`
satisfies it), so the executor never needs to know the catalogue.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from playwright.async_api import Page

from webfovea.config import Component, HarnessConfig
from webfovea.guardrails.bounds import PointSpace, check_point
from webfovea.models.base import Attachment
from webfovea.types import Action

Point = tuple[float, float]


class View(PointSpace, Protocol):
    """The sent image and the viewport it maps to (satisfied by `observation.capture.Shot`)."""

    @property
    def css_width(self) -> float: ...

    @property
    def css_height(self) -> float: ...

    def to_css(self, x: float, y: float) -> tuple[float, float]: ...


@dataclass
class ExecContext:
    page: Page
    config: HarnessConfig
    view: View
    find_positions: dict[str, int] = field(default_factory=dict)  # find_text: next match per text
    # What an action keeps between its calls within one task (goto: the URLs seen so far).
    state: dict[str, Any] = field(default_factory=dict)
    # Let what the pointer's arrival set off happen (hover handlers, their short timers and
    # transitions), bounded; returns at once when nothing was set off. Given by the executor.
    hover_pause: Callable[[], Awaitable[Any]] | None = None
    # Structured/hybrid modes: the snapshot the model decided on (`observation.snapshot.Snapshot`:
    # `.full` untruncated text, `.nodes` its lines) and the CSS point a `ref` resolved to.
    snapshot: Any = None
    target: Point | None = None
    # look/locate: the model that answers questions about the screenshot (None: no model at
    # hand, e.g. a bare Harness without vision_model; look then attaches the screenshot).
    vision: Vision | None = None

    def on(self, c: Component) -> bool:
        return self.config.on(c)

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
    show_image: bool = False  # look: the current screenshot goes to the model with the next input
    attachment: Attachment | None = None  # zoom: an image of its own that goes with the next input
    # look/locate: the calls made to the vision model (or the task's model) inside the action,
    # each {purpose, model, separate, raw_reply, usage, seconds, error} (the step record's `vision`).
    vision_calls: list[dict[str, Any]] = field(default_factory=list)


class Vision(Protocol):
    """The model that answers `look` and `locate` (`observation.vision.VisionPort`): a separate
    vision model when one is configured (`--vision-model`), else the task's own model."""

    @property
    def separate(self) -> bool: ...

    async def view(self, grid: bool = False) -> tuple[Any, Any]:
        """(the image to show, the capture it came from: a View) of the current viewport;
        with `grid`, the 16x12 localisation grid is drawn over the image."""
        ...

    async def viewport(self) -> tuple[float, float]:
        """The CSS viewport size now."""
        ...

    async def ask(self, purpose: str, system: str, prompt: str, image: Any) -> tuple[str, dict[str, Any]]:
        """The model's reply text to one question about `image`, and the call's record."""
        ...


class Capture(Protocol):
    """Takes the next observation's capture (`observation.capture.Screen.capture`): a view with `.image`."""

    def __call__(self) -> Awaitable[Any]: ...


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
    def execute(self) -> Callable[[ExecContext, Action], Awaitable[Outcome]]: ...
