"""The shape of one action spec: the single place an action is defined.

A spec holds the signature the prompt shows, the parameters the parser reads, the names
models also use for it, the switch that offers it, its per-task budget, its executor, how
the executor watches it (fingerprints, text hash, the DOM event of the iframe fallback),
the feedback it writes, and what a manual and the failure taxonomy say of it. `webfovea/actions/catalog.py` registers every spec; the prompt,
parser, executor, feedback and guardrails all read these fields instead of testing names.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from webfovea.config import Component, HarnessConfig
from webfovea.execution.context import ExecContext, Outcome
from webfovea.types import Action, ParamSpec

__all__ = ["ActionSpec", "ExecContext", "ManualLine", "Outcome", "RetryWhen", "TextHash"]

Executor = Callable[[ExecContext, Action], Awaitable[Outcome]]
# When a text hash of the frame under the point is compared too: hovers reveal tooltips
# that change neither node count nor text length; chart clicks likewise.
TextHash = Literal["never", "on_chart", "always"]
# When the failure taxonomy counts doing the action again as a retry (eval/taxonomy.py):
# always; only when the page did not change (otherwise it is reading on); never.
RetryWhen = Literal["always", "unchanged", "never"]
# The line a Protocol II manual suggests for a step (judge/manuals/facts.py): a template formatted
# with the step's arguments, `element` (the element the step hit, as a reader sees it: "the
# button 'Apply'") and `said` (" (<first line of its feedback>)" or ""), or a function of
# (arguments, said) for what a template cannot say.
ManualLine = str | Callable[[Mapping[str, Any], str], str]


# What a template reads for a value the records do not hold (the element a step hit, unnamed).
_UNKNOWN = {"element": "the control at the marked point"}


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        # An argument the step did not give reads as the record has it.
        return _UNKNOWN.get(key, "None")


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
    manual: ManualLine | None = None  # its line in a Protocol II manual; None: the call as written
    # Its call in UI-TARS-1.5's grammar (`export --format sft --grammar uitars`): a format string
    # over its params, each written by its kind (export/uitars.py); None: no counterpart there.
    uitars: str | None = None
    retry_when: RetryWhen = "always"  # the failure taxonomy's retry count (eval/taxonomy.py)
    # Submits the answer and ends the task: readers of records leave it out of the steps they
    # retell (a manual's lines, the judge's list of executed actions); the answer is given apart.
    ends_task: bool = False
    # Offered only when this setting of the config is set (upload: the workspace), so a task
    # with nothing to give the action is not shown it.
    needs_setting: str | None = None
    # The text parameters in which `<secret>NAME</secret>` stands for a secret's value
    # (execution/secrets.py): the value is put in only on the secret's origins.
    secret_params: tuple[str, ...] = ()

    def manual_line(self, args: Mapping[str, Any], said: str) -> str | None:
        """What a manual tells a person to do for a step of this action (None: no line of its own)."""
        if self.manual is None:
            return None
        if callable(self.manual):
            return self.manual(args, said)
        return self.manual.format_map(_Args({**args, "said": said}))

    def offered(
        self, on: Callable[[Component], bool], snapshot: bool = False, config: HarnessConfig | None = None
    ) -> bool:
        if self.needs_setting is not None and not (
            config is not None and getattr(config, self.needs_setting)
        ):
            return False
        if self.needs_snapshot and not snapshot and not (self.also_with is not None and on(self.also_with)):
            return False
        return self.component is None or on(self.component)
