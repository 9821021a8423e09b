"""Budgets, enforced where they apply: per action by the executor, per task by the agent loop.

The prompt states the budgets too, but only as information: a model that ignores them is
stopped here, not trusted to comply (principle 3: enforce budgets in the executor).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from webfovea.config import Component, HarnessConfig

MAX_CONSECUTIVE_TOOL_TIMEOUTS = 3


class ActionBudgets:
    """Per-task call budgets of the actions that have one (switch: `budgets`)."""

    def __init__(self, config: HarnessConfig) -> None:
        self.enforced = config.on(Component.budgets)
        self.used: Counter[str] = Counter()

    def left(self, name: str, budget: int | None) -> int | None:
        """Calls left for this action, or None when it has no (enforced) budget."""
        if budget is None or not self.enforced:
            return None
        return budget - self.used[name]

    def spend(self, name: str) -> None:
        self.used[name] += 1

    def refund(self, name: str) -> None:
        """The call was refused before it touched the page: it does not count."""
        self.used[name] -= 1


@dataclass
class TaskBudget:
    """The task's step and wall-clock budgets, and the tool-timeout breaker."""

    max_steps: int
    max_seconds: float
    tool_timeout_s: float
    started: float = field(default_factory=time.monotonic)
    steps: int = 0
    timeouts_in_a_row: int = 0

    @classmethod
    def of(cls, config: HarnessConfig) -> TaskBudget:
        return cls(config.max_steps, config.max_seconds, config.tool_timeout_s)

    def steps_spent(self) -> bool:
        return self.steps >= self.max_steps

    def seconds_left(self) -> float:
        return max(self.max_seconds - (time.monotonic() - self.started), 0.001)

    def tool_timed_out(self) -> bool:
        """Count a tool timeout; True when the task must stop (too many in a row)."""
        self.timeouts_in_a_row += 1
        return self.timeouts_in_a_row >= MAX_CONSECUTIVE_TOOL_TIMEOUTS

    def tool_completed(self) -> None:
        self.timeouts_in_a_row = 0
