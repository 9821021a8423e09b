"""The `verify` gate: a state-changing task does not end at its first `finished`.

BreakingWeb (seed 003, docs/glossary.md) found that most agent failures under a misbehaving site are belief
failures: the agent trusts a "Saved" toast and says it is done while the backend holds
nothing (a done-signal false-positive rate of 54-85%). The fix it names is a re-read of the
real state before trusting one's own "done". This gate is that re-read, enforced by the
harness rather than asked for in the prompt (principle 3: budgets and rules in the executor):

- it applies only to a task that declares `state_changing` (a retrieval task reads, it does
  not save, and its answer is already read from the page);
- the first `finished` is held: the harness opens the page that shows the real state
  (`verify_url`, else the current page reloaded), the model gets one note asking it to
  compare, and the step counts against the step budget like any other;
- the next `finished` is accepted. One check per task: a second hold would only teach the
  model to say `finished` twice, and it would cost a step on every honest run.
"""

from __future__ import annotations

from dataclasses import dataclass

from webfovea.config import Component, HarnessConfig
from webfovea.task import Task


@dataclass
class VerifyGate:
    """Per task: whether the next `finished` is held, and where the real state is shown."""

    active: bool = False
    url: str | None = None  # the page that shows the real state; None: reload the current page
    requested: int = 0  # how many times a finished was held (0 or 1)

    @classmethod
    def for_task(cls, config: HarnessConfig, task: Task | None) -> VerifyGate:
        """On only with the `verify` switch and a task that changes state."""
        if task is None or not config.on(Component.verify):
            return cls()
        return cls(active=bool(task.state_changing), url=task.verify_url)

    def holds(self) -> bool:
        """Count one `finished`; True when the harness must show the real state instead of ending."""
        if not self.active or self.requested:
            return False
        self.requested += 1
        return True
