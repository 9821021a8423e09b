"""The scroll breaker: stop a task that scrolls on and on.

The reference agent stopped after N consecutive scrolls whatever the page did, which
killed tasks that were legitimately scrolling through a long table. With
`scroll_breaker_needs_no_change` on, it fires only when the page also stopped changing.
"""

from __future__ import annotations

from webfovea.config import Component, HarnessConfig


class ScrollBreaker:
    def __init__(self, config: HarnessConfig) -> None:
        self.limit = config.scroll_breaker_limit
        self.needs_no_change = config.on(Component.scroll_breaker_needs_no_change)
        self.in_a_row = 0

    def fires(self, is_scroll: bool, changed: bool | None) -> bool:
        """Count one executed action; True when the task must stop."""
        self.in_a_row = self.in_a_row + 1 if is_scroll else 0
        if self.in_a_row < self.limit:
            return False
        return changed is False if self.needs_no_change else True

    def reason(self) -> str:
        tail = " and the page stopped changing." if self.needs_no_change else "."
        return f"Stopped: {self.limit} consecutive scrolls{tail}"
