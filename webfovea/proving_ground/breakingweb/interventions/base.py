"""What an intervention family is: one stressor on one layer, deterministic by seed and ordinal.

A family declares its layer and the seed's primitive it stresses, when it applies to a task,
and what it does:
- seed/server layers: `at_create(ctx)` changes the fresh state once (content, structure) or
  installs a save hook (save drift);
- network layer: `network` (a NetworkRule) answers matching API calls differently by their
  per-(session, rule) ordinal (network.py runs it);
- client layer: `client(ctx)` is the plan iv.js receives (`window.__IV_PLAN__`).
Every firing goes to `Session.audit` with the family's name.

`recover(plan, task)` is the oracle plan of a careful agent that sees the degradation (closes
the overlay, signs in again, waits out the 429, reads the legend, re-checks what was saved).
`belief` families (the agent can only notice by re-reading state: forged success, save drift,
a planted answer) keep the task's own plan in benchmark runs; the recovery plan is what a
verifying agent would do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webfovea.proving_ground.breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea.proving_ground.sessions import Session

LAYERS = ("seed", "server", "network", "client")
PRIMITIVES = (
    "grounding",
    "planning",
    "state tracking",
    "backtracking",
    "patience",
    "exploration",
    "verification",
)
Step = dict[str, Any]


@dataclass
class IvContext:
    """What a family sees when a session is made."""

    session: Session
    task: StatefulTask
    app: AppSpec
    rng: random.Random  # rng(task, seed, variant, family)
    family_name: str = ""
    family_layer: str = ""

    def fire(self, event: str, **details: Any) -> None:
        """One firing into the session's audit log (no times: equal runs, equal logs)."""
        self.session.audit.append(
            {"layer": self.family_layer, "family": self.family_name, "event": event, **details}
        )


@dataclass(frozen=True)
class Effect:
    """What the network layer does to one matching request."""

    status: int | None = None  # answer with this status instead of calling the app
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_ms: int = 0  # before calling the app (or answering)
    forge: bool = False  # call the app on the real state, send its answer, then restore the state
    note: str = ""  # for the audit log (deterministic: no times)


@dataclass(frozen=True)
class NetworkRule:
    target: str  # which of the task's routes it matches: "write", "read" or "api" (any API call)
    decide: Callable[[int, Session, random.Random], Effect | None]  # (ordinal from 1, session, rng)


@dataclass(frozen=True)
class Family:
    name: str  # "layer/stressor"
    layer: str
    primitive: str
    summary: str
    needs: tuple[str, ...] = ()  # task.targets keys it needs to apply
    needs_any: tuple[str, ...] = ()  # ... or at least one of these
    app_needs: tuple[str, ...] = ()  # "catalogue", "editable"
    state_only: bool = False  # only on state-changing tasks
    retrieval_only: bool = False
    belief: bool = False
    at_create: Callable[[IvContext], None] | None = None
    network: NetworkRule | None = None
    client: Callable[[IvContext], dict[str, Any]] | None = None
    recover: Callable[[list[Step], StatefulTask], list[Step]] | None = None

    @property
    def short(self) -> str:
        return self.name.split("/", 1)[1]

    def refusal(self, task: StatefulTask, app: AppSpec) -> str | None:
        """Why this family does not apply to the task (None: it applies)."""
        if task.families and self.name not in task.families:
            return f"task {task.task_id} does not list {self.name} among its families"
        if self.state_only and not task.state_changing:
            return f"{self.name} applies to state-changing tasks only"
        if self.retrieval_only and task.state_changing:
            return f"{self.name} applies to retrieval tasks only"
        if "catalogue" in self.app_needs and app.catalogue is None:
            return f"{self.name} needs an app with a catalogue; {app.name} has none"
        missing = [k for k in self.needs if k not in task.targets]
        if missing:
            return f"{self.name} needs the task to name {', '.join(missing)}"
        if self.needs_any and not any(k in task.targets for k in self.needs_any):
            return f"{self.name} needs the task to name one of {', '.join(self.needs_any)}"
        return None

    def recovery_plan(self, task: StatefulTask) -> list[Step]:
        return self.recover(task.plan, task) if self.recover else list(task.plan)


def strip_expect(step: Step) -> Step:
    return {k: v for k, v in step.items() if k != "expect"}


def submit_index(task: StatefulTask) -> int:
    """The plan step that sends the write (or applies the filter): targets['submit_step']."""
    return int(task.targets["submit_step"])
