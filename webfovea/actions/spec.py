"""The shape of one action spec: the single place an action is defined.

A spec holds the signature the prompt shows, the parameters the parser reads, the
switch that offers it, its per-task budget, its executor and the feedback it writes.
`webfovea/actions/catalog.py` lists every spec; the prompt, parser, executor and
feedback are all driven from that list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from webfovea.actions.types import Action, ParamSpec
from webfovea.config import Component

if TYPE_CHECKING:
    from webfovea.execution.executor import ExecContext

Point = tuple[float, float]


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
    details: dict[str, Any] = field(default_factory=dict)


Executor = Callable[["ExecContext", Action], Awaitable[Outcome]]


@dataclass(frozen=True)
class ActionSpec:
    name: str
    params: tuple[ParamSpec, ...]
    signature: str  # exactly how the prompt shows the call
    purpose: str  # one line for the prompt
    execute: Executor
    component: Component | None = None  # None: always offered
    in_reference: bool = False  # offered by the naive reference harness
    budget: int | None = None  # per-task budget, enforced by the executor
    rule: str | None = None  # tool trigger, written as a rule (prompt, when tool_triggers is on)
    feedback: str = ""  # what the model is told after it (documents Outcome.note; checked by tests)
    pointer: bool = False  # takes start_box: mapped, bounds-checked, fingerprinted at the point
    clicky: bool = False  # a click-like action: the iframe DOM fallback may repeat it in the frame
    watch: bool = True  # fingerprint the page before/after (off where feedback is a read-back)

    def offered(self, on: Callable[[Component], bool], reference: bool) -> bool:
        if reference:
            return self.in_reference
        return self.component is None or on(self.component)
