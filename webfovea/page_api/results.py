"""What `act`, `extract` and `observe` hand back, and the errors they raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webfovea.models.base import ToolCall


class PageApiError(RuntimeError):
    """A call on the page could not do what it was asked; the message says why."""


class ExtractError(PageApiError):
    """`extract` got no value that meets the schema; `problem` is the last validation error."""

    def __init__(self, message: str, problem: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class ActStep:
    """One action `act` executed through the harness, with the harness's own feedback."""

    action: str  # as the model wrote it, e.g. select(start_box='(361,250)', option='Vietnam')
    name: str  # the action's name in the catalogue
    outcome: str | None  # executed | no_effect | failed | rejected
    feedback: str  # the sentence the harness would tell the model
    point: tuple[float, float] | None = None  # where it landed, CSS px of the viewport


@dataclass(frozen=True)
class ActResult:
    """What one `act` did: its steps in order; `cached` when no model was asked."""

    instruction: str
    steps: list[ActStep] = field(default_factory=list)
    cached: bool = False
    model_calls: int = 0

    @property
    def ok(self) -> bool:
        """Every step ran on the page (executed, or ran without a visible change)."""
        return bool(self.steps) and all(s.outcome in ("executed", "no_effect") for s in self.steps)

    @property
    def feedback(self) -> str:
        return " ".join(s.feedback for s in self.steps if s.feedback)


@dataclass(frozen=True)
class Candidate:
    """An action `observe` proposes, not executed: what it is and what it would act on.
    `act(candidate)` runs it with no model call while the page is still the one observed."""

    description: str  # the target as the harness names it: <select> Country (a dropdown list ...)
    action: str  # the call as the model wrote it
    name: str
    args: dict[str, Any]
    point: tuple[float, float] | None  # the target's point, CSS px of the viewport
    reply: str  # the reply text `act(candidate)` hands the harness
    calls: list[ToolCall] | None  # or the tool call it came as
    state: str | None  # the page state it was proposed on (page_api/cache.py `state_key`)
