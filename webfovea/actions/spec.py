"""The shape of one action spec: the single place an action is defined.

A spec holds the signature the prompt shows, the parameters the parser reads, the names
models also use for it, the switch that offers it, its per-task budget, its executor, how
the executor watches it (fingerprints, text hash, the DOM event of the iframe fallback),
and the feedback it writes. `webfovea/actions/catalog.py` registers every spec; the prompt,
parser, executor, feedback and guardrails all read these fields instead of testing names.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from webfovea.config import Component
from webfovea.execution.context import ExecContext, Outcome
from webfovea.types import Action, ParamSpec

__all__ = ["ActionSpec", "ExecContext", "Outcome", "TextHash"]

Executor = Callable[[ExecContext, Action], Awaitable[Outcome]]
# When a text hash of the frame under the point is compared too: hovers reveal tooltips
# that change neither node count nor text length; chart clicks likewise.
TextHash = Literal["never", "on_chart", "always"]


@dataclass(frozen=True)
class ActionSpec:
    name: str
    params: tuple[ParamSpec, ...]
    signature: str  # exactly how the prompt shows the call
    purpose: str  # one line for the prompt
    execute: Executor
    component: Component | None = None  # the switch that offers it; None: always offered (reference set)
    budget: int | None = None  # per-task budget, enforced by the executor
    rule: str | None = None  # tool trigger, written as a rule (prompt, when tool_triggers is on)
    feedback: str = ""  # what the model is told after it (documents Outcome.note; checked by tests)
    aliases: tuple[str, ...] = ()  # other names models write for it (double_click -> left_double)
    pointer: bool = False  # takes start_box: mapped, bounds-checked, fingerprinted at the point
    watch: bool = True  # fingerprint the page before/after (off where feedback is a read-back)
    text_hash: TextHash = "never"
    dom_event: str | None = None  # the event the iframe DOM fallback dispatches if nothing changed
    counts_as_scroll: bool = False  # counted by the scroll breaker
    # Targets by reference (structured/hybrid modes): the action also takes ref='e12' in place
    # of start_box (actions/targets.py derives that variant of the spec).
    targets: bool = False
    needs_target: bool = False  # set on the variant: a ref or a start_box must be given
    needs_snapshot: bool = False  # offered only in modes that show the snapshot (find, snapshot)
    also_with: Component | None = (
        None  # ... or in any mode when this switch is on (locate: the winner's tools)
    )

    def offered(self, on: Callable[[Component], bool], snapshot: bool = False) -> bool:
        if self.needs_snapshot and not snapshot and not (self.also_with is not None and on(self.also_with)):
            return False
        return self.component is None or on(self.component)
