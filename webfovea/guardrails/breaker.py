"""The breakers: stop a task that scrolls on and on, or clicks the same dead spot again and again.

The reference agent stopped after N consecutive scrolls whatever the page did, which
killed tasks that were legitimately scrolling through a long table. With
`scroll_breaker_needs_no_change` on, it fires only when the page also stopped changing.
"""

from __future__ import annotations

import math
from typing import Any

from webfovea.config import Component, HarnessConfig

SAME_SPOT_PX = 12.0  # two points this close (CSS px) are one target: a model's aim jitters


class ScrollBreaker:
    def __init__(self, config: HarnessConfig) -> None:
        self.limit = config.scroll_breaker_limit
        self.needs_no_change = config.on(Component.scroll_breaker_needs_no_change)
        self.in_a_row = 0

    def fires(self, is_scroll: bool, changed: bool | None) -> bool:
        """Count one executed action; True when the task must stop."""
        self.in_a_row = self.in_a_row + 1 if is_scroll else 0
        if self.limit <= 0 or self.in_a_row < self.limit:  # 0: no breaker (the winner had none)
            return False
        return changed is False if self.needs_no_change else True

    def reason(self) -> str:
        tail = " and the page stopped changing." if self.needs_no_change else "."
        return f"Stopped: {self.limit} consecutive scrolls{tail}"


class LoopBreaker:
    """Stop a task that sends the same pointer action to the same spot, with the same
    arguments, `loop_breaker_limit` times in a row while the page never changes.

    A model that re-clicks a button an overlay covers (seed 003's retry loop, docs/glossary.md) would otherwise
    spend the whole step budget there. Only pointer actions count: scrolling has its own
    breaker, and waiting is bounded by the budget. A change on the page, or any other action,
    starts the count again.
    """

    def __init__(self, config: HarnessConfig) -> None:
        self.on = config.on(Component.loop_breaker)
        self.limit = config.loop_breaker_limit
        self.in_a_row = 0
        self._last: tuple[str, str, tuple[float, float]] | None = None

    def fires(
        self,
        name: str,
        args: dict[str, Any],
        point: tuple[float, float] | None,
        *,
        pointer: bool,
        changed: bool | None,
    ) -> bool:
        """Count one executed action; True when the task must stop."""
        if not self.on or not pointer or point is None or changed is not False:
            self.in_a_row, self._last = 0, None
            return False
        rest = repr(
            sorted((k, str(v)) for k, v in args.items() if k not in ("start_box", "end_box", "points"))
        )
        same = (
            self._last is not None
            and self._last[:2] == (name, rest)
            and math.dist(self._last[2], point) <= SAME_SPOT_PX
        )
        self.in_a_row = self.in_a_row + 1 if same else 1
        if not same:
            self._last = (name, rest, point)
        return self.in_a_row >= self.limit

    def reason(self) -> str:
        return f"Stopped: the same action on the same spot {self.limit} times in a row and the page never changed."
