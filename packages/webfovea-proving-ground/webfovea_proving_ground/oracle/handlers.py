"""Recovery handlers: what the oracle does whenever the page shows a given failure, wherever
in the plan it shows.

A plan step may carry `"on": [H, …]` (docs/contracts.md §1), each handler
`{"when": E, "do": [steps], "redo_from": N, "redo_after": M, "times": 1}`. From the moment
the oracle reaches that step, before each of its replies it checks every handler's `when`;
the first that holds (at most `times` times each) interrupts the plan: the oracle follows
`do` (a sign-in, a wait), then goes on with the plan at the step it was at — or, when that
step is `redo_after` or later, at `redo_from` (a draft lost with the session is typed again).

Why not steps at a fixed place: the failure a network family injects hits the first matching
call, and where that call happens is the page's business — the page's own first load (a
calendar opens on its month, the view a day-count task asks about), an early navigation, or
the submit. A careful person handles it where it shows; a recovery written after the submit
step either never runs or runs when nothing failed (a wait for an error that never comes, a
second click that moves a week further).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from webfovea_proving_ground.oracle.grounding import expectation_holds

Step = dict[str, Any]


@dataclass
class Handlers:
    """The plan's handlers and the interruption under way (the plan and where to go on)."""

    fired: dict[tuple[int, int], int] = field(default_factory=dict)  # (step, handler) -> times
    saved: tuple[list[Step], int] | None = None  # the plan interrupted and the step to go on at

    @property
    def active(self) -> bool:
        return self.saved is not None

    async def interrupt(self, page: Page, plan: list[Step], cursor: int) -> list[Step] | None:
        """The handler's steps when one of the handlers reached so far sees its failure (the
        plan and where to go on are kept: `resume`); None when none does."""
        if self.saved is not None:
            return None  # a handler's own steps are not interrupted
        for at, step in enumerate(plan[: cursor + 1]):
            for k, handler in enumerate(step.get("on") or []):
                times = int(handler.get("times", 1))
                if self.fired.get((at, k), 0) >= times:
                    continue
                if not handler.get("when") or not await expectation_holds(page, handler["when"]):
                    continue
                self.fired[(at, k)] = self.fired.get((at, k), 0) + 1
                redo = handler.get("redo_from")
                after = int(handler.get("redo_after", 0))
                resume = int(redo) if redo is not None and cursor >= after else cursor
                self.saved = (plan, resume)
                return [dict(s) for s in handler.get("do") or []]
        return None

    def resume(self) -> tuple[list[Step], int]:
        """Back to the interrupted plan, at the step to go on at."""
        assert self.saved is not None
        plan, at = self.saved
        self.saved = None
        return plan, at
