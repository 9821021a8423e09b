"""What an intervention family is: one stressor on one layer, deterministic by seed and ordinal.

A family declares its layer and the seed's primitive it stresses, when it applies to a task,
and what it does:
- seed/server layers: `at_create(ctx)` changes the fresh state once (content, structure) or
  installs a save hook (save drift);
- network layer: `network` (a NetworkRule) answers matching API calls differently by their
  per-(session, rule) ordinal (network.py runs it);
- client layer: `client(ctx)` is the plan iv.js receives (`window.__IV_PLAN__`).
Every firing goes to `Session.audit` with the family's name.

What the catalogue says of a family (docs/breakingweb.md, `webfovea bench breakingweb --list`)
is declared on it: `summary` (the mechanism), `cue` (how the degradation shows: the DOM, an
HTTP status or a read-back — `detect` names which), `recovery` (what a careful agent does),
`counterpart` (the real-world failure class it stands for; its module docstring names it too)
and `own` (True: a family this project added beyond the seed's catalogue text: an extension
outside the official catalogue, `Family.official` False).

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

from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea_proving_ground.sessions import Session

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

    # Call the app, then change what goes back (network.py buffers its answer):
    transform: Callable[[Any], Any] | None = None  # rewrite its JSON answer (a shuffled list)
    keep: str | None = None  # keep its JSON answer in session.extra["kept"][keep] (a stale replica)
    raw: bytes | None = None  # with `status`: these bytes instead of a JSON body (a truncated answer)


@dataclass(frozen=True)
class NetworkRule:
    """Which of the task's routes (`targets` keys: "main", "write", "list") a family answers
    differently, and how: `decide(ordinal, session, rng, target)` with the per-(session, family,
    route) ordinal from 1 and the route key that matched."""

    target: str | tuple[str, ...]
    decide: Callable[[int, Session, random.Random, str], Effect | None]

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target,) if isinstance(self.target, str) else self.target


@dataclass(frozen=True)
class Family:
    name: str  # "layer/stressor"
    layer: str
    primitive: str
    summary: str  # the mechanism, one line
    counterpart: str = ""  # the real-world failure class (also named in the module docstring)
    cue: str = ""  # how it shows on the page, in its HTTP status or on a read-back
    recovery: str = ""  # what a careful agent does
    detect: str = "dom"  # dom | status | readback: where the cue is (the design rules' test reads it)
    status: int | None = None  # detect == "status": the HTTP status the page is answered
    own: bool = False  # added by this project beyond the seed's catalogue text
    needs: tuple[str, ...] = ()  # task.targets keys it needs to apply
    needs_any: tuple[str, ...] = ()  # ... or at least one of these
    app_needs: tuple[str, ...] = ()  # "catalogue"
    # A further check of the task and app (None: applies), for what targets alone cannot say.
    applies: Callable[[StatefulTask, AppSpec], str | None] | None = None
    state_only: bool = False  # only on state tasks (`state_changing`)
    retrieval_only: bool = False
    belief: bool = False
    at_create: Callable[[IvContext], None] | None = None
    network: NetworkRule | None = None
    client: Callable[[IvContext], dict[str, Any]] | None = None
    recover: Callable[[list[Step], StatefulTask], list[Step]] | None = None

    @property
    def short(self) -> str:
        return self.name.split("/", 1)[1]

    @property
    def official(self) -> bool:
        """One of the seed's catalogue (its 29 families): every family but the ones this
        project added, which stay as extensions (`--families all` still runs them)."""
        return not self.own

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
        return self.applies(task, app) if self.applies else None

    def recovery_plan(self, task: StatefulTask) -> list[Step]:
        return self.recover(task.plan, task) if self.recover else list(task.plan)


DETECTS = ("dom", "status", "readback")


def strip_expect(step: Step) -> Step:
    return {k: v for k, v in step.items() if k != "expect"}


def submit_index(task: StatefulTask) -> int:
    """The plan step that sends the write (or applies the filter): targets['submit_step']."""
    return int(task.targets["submit_step"])


def detour(step: Step, kind: str, cue: dict[str, Any] | None) -> Step:
    """A recovery step marked as the detour a careful agent takes when `cue` shows (an
    expectation, contracts §1); a misreading oracle (webfovea_proving_ground/oracle/misreads.py) may skip it."""
    return {**step, "detour": kind, **({"cue": cue} if cue else {})}


def trap(step: Step, kind: str, cue: dict[str, Any] | None) -> Step:
    """A step only a careless agent takes where `cue` shows (the default oracle skips it; the
    misreading oracle's `take_trap_rate` takes it): the failure the family invites."""
    return {**step, "trap": kind, **({"cue": cue} if cue else {})}


GIVE_UP = {"op": "answer", "value": ""}  # a trap: finish without doing the task


def after_submit(
    plan: list[Step], task: StatefulTask, inserted: list[Step], keep_expect: bool = False
) -> list[Step]:
    """The plan with `inserted` right after the submit step (whose expectation is dropped: the
    first attempt does not do what it says), then the rest of the plan."""
    i = submit_index(task)
    sent = plan[i] if keep_expect else strip_expect(plan[i])
    return [*plan[:i], sent, *inserted, *plan[i + 1 :]]


def redo_submit(plan: list[Step], task: StatefulTask) -> Step:
    """The submit step once more, with its own expectation (a second attempt that works)."""
    step = plan[submit_index(task)]
    return {k: v for k, v in step.items() if k in ("op", "target", "option", "content", "submit", "expect")}


def acted_record(ctx: IvContext) -> tuple[list[Any], int]:
    """The record the task acts on (`targets['decoy_of']`): its list in the state (any entity:
    a list field of records with an `id`) and its index there."""
    rid = str(ctx.task.targets["decoy_of"])
    for name in type(ctx.session.state).model_fields:
        items = getattr(ctx.session.state, name)
        if isinstance(items, list):
            for i, item in enumerate(items):
                if getattr(item, "id", None) == rid:
                    return items, i
    raise LookupError(f"task {ctx.task.task_id}: no record {rid} in its state")


def named_fields(record: Any, instruction: str) -> list[str]:
    """The record's text fields whose value the instruction quotes (how it names the record)."""
    return [
        k
        for k, v in record.model_dump().items()
        if k != "id" and isinstance(v, str) and len(v) >= 4 and v in instruction
    ]


def replaced(items: list[Any], at: int, field_name: str, value: str) -> bool:
    """Store `value` in the record's field when its model accepts it (else leave it: False)."""
    rec = items[at]
    try:
        items[at] = type(rec).model_validate({**rec.model_dump(), field_name: value})
    except ValueError:
        return False
    return True
