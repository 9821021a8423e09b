"""Why a run failed: seed 003's failure taxonomy (docs/glossary.md), and the stage where the run first went wrong.

Two labels per failed task, both computed from what the task folder recorded
(`trajectory.jsonl` + `result.json`) and the task's score; a passed task gets neither.
docs/taxonomy.md is the user's description of both; keep it in step with this file.

**Taxonomy** (BreakingWeb, seed 003 §4, Table 3): the first rule that holds, in this order.

1. `misleading_success_taken` — the run ended with `finished`, the positive checks failed,
   and the final thought claims success (saved, submitted, done, "the value is" …).
2. `silent_overreach` — the positive checks passed but an invariant was broken.
3. `premature_done` — ended with `finished`, positive checks failed (no claim in the thought).
4. `retry_loop` — the same action on the same target at least 5 times.
5. `plan_collapse` — at most 5 steps and never `finished`.
6. `selector_hallucination` — at least 3 action results were errors (failed or refused).
Fallback: `abandoned_run` — a failure no rule explains (budget spent exploring, a harness
halt); counted, but in no group. Groups: belief = 1 + 3, action = 4 + 5 + 6, overreach = 2.

Positive checks are the backend obligations when the environment scored state
(`result.state`: all obligations met), else the answer score; the only negative checks are
the state's invariants.

**Stage**: the first step that shows a harness-visible problem names the stage; a run whose
every step went through cleanly is the model's (see `stage_of`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from webfovea.actions.catalog import BY_NAME
from webfovea.record import StepRecord, TaskResult

LABELS = (
    "misleading_success_taken",
    "silent_overreach",
    "premature_done",
    "retry_loop",
    "plan_collapse",
    "selector_hallucination",
    "abandoned_run",
)
GROUPS: dict[str, str | None] = {
    "misleading_success_taken": "belief",
    "premature_done": "belief",
    "retry_loop": "action",
    "plan_collapse": "action",
    "selector_hallucination": "action",
    "silent_overreach": "overreach",
    "abandoned_run": None,
}
STAGES = ("parsing", "execution", "feedback", "observation", "guardrail", "model")

REPEAT_LIMIT = 5
COLLAPSE_STEPS = 5
ERROR_LIMIT = 3
SAME_POINT_PX = 12.0  # two points this close (CSS px) are the same target: a model's aim jitters

# Seed 003's keywords, plus the words retrieval and our other state changes use.
_CLAIMS = re.compile(
    r"\b(saved|success|successful(ly)?|submitted|confirmed|added|starred|done|completed?|created|updated|"
    r"booked|sent|moved|marked|recorded|reserved|ordered|the (value|answer|figure|number|total) is|"
    r"i can (see|read) the|found it)\b",
    re.IGNORECASE,
)
# Statuses where the harness or its host stopped the run, not the model's choices.
_HALTS = {
    "model_error": "model",
    "browser_error": "execution",
    "tool_timeout": "execution",
    "worker_lost": "execution",
    "interrupted": "execution",
    "error": "execution",
}


@dataclass(frozen=True)
class Checks:
    """The scorer's verdict split the way the taxonomy needs it."""

    positives_ok: bool  # obligations all met, or the answer matched
    invariants_ok: bool = True  # no invariant of the state broken

    @property
    def passed(self) -> bool:
        return self.positives_ok and self.invariants_ok


def checks_of(result: TaskResult, answer_passed: bool) -> Checks:
    """Backend state when the environment scored it (`result.state`), else the answer score.

    `obligations_met` may be a count (with `obligations_total`) or one boolean per obligation."""
    state = result.state
    if state is None:
        return Checks(positives_ok=answer_passed)
    met = getattr(state, "obligations_met", None)
    total = getattr(state, "obligations_total", None)
    if isinstance(met, list):
        total = len(met) if total is None else total
        met = sum(1 for m in met if m)
    broken = bool(getattr(state, "invariants_broken", None))
    if total is None or not total:  # no obligations (a retrieval task): its answer decides
        return Checks(positives_ok=answer_passed, invariants_ok=not broken)
    # The backend is scored whatever ended the run: a save that landed before the budget ran
    # out still landed.
    return Checks(positives_ok=(met or 0) >= total, invariants_ok=not broken)


def claims_success(thought: str) -> bool:
    return bool(_CLAIMS.search(thought or ""))


def _signature(step: StepRecord) -> tuple[str, str] | None:
    """(action name, its arguments without points) — the point is compared separately."""
    if not step.action:
        return None
    args = {
        k: v
        for k, v in (step.action.get("args") or {}).items()
        if k not in ("start_box", "end_box", "points")
    }
    norm = ",".join(f"{k}={' '.join(str(v).split()).casefold()}" for k, v in sorted(args.items()))
    return str(step.action.get("name")), norm


def _counts_as_retry(step: StepRecord) -> bool:
    # As the action's spec says (`ActionSpec.retry_when`): a scroll or wait that moved the page
    # is reading on, not retrying; `finished` never loops. An unknown action counts.
    spec = BY_NAME.get(str((step.action or {}).get("name", "")))
    when = spec.retry_when if spec is not None else "always"
    if when == "never":
        return False
    if when == "unchanged":
        return step.changed is False
    return True


def max_repeat(steps: Sequence[StepRecord]) -> int:
    """The most times one action was sent to one target (same name, same arguments, points
    within SAME_POINT_PX of the first) anywhere in the run."""
    groups: list[tuple[tuple[str, str], list[float] | None, int]] = []
    best = 0
    for step in steps:
        sig = _signature(step)
        if sig is None or not _counts_as_retry(step):
            continue
        point = step.executed_point
        for i, (gsig, gpoint, n) in enumerate(groups):
            same_point = (gpoint is None and point is None) or (
                gpoint is not None and point is not None and math.dist(gpoint, point) <= SAME_POINT_PX
            )
            if gsig == sig and same_point:
                groups[i] = (gsig, gpoint, n + 1)
                best = max(best, n + 1)
                break
        else:
            groups.append((sig, point, 1))
            best = max(best, 1)
    return best


def error_results(steps: Sequence[StepRecord]) -> int:
    return sum(1 for s in steps if s.outcome in ("failed", "rejected"))


def classify(result: TaskResult, steps: Sequence[StepRecord], checks: Checks) -> str | None:
    """The taxonomy label of a failed run (None when it passed)."""
    if checks.passed:
        return None
    finished = result.status == "finished"
    final_thought = steps[-1].thought if steps else ""
    if finished and not checks.positives_ok and claims_success(final_thought):
        return "misleading_success_taken"
    if checks.positives_ok and not checks.invariants_ok:
        return "silent_overreach"
    if finished and not checks.positives_ok:
        return "premature_done"
    if max_repeat(steps) >= REPEAT_LIMIT:
        return "retry_loop"
    if len(steps) <= COLLAPSE_STEPS and not finished and result.status not in _HALTS:
        return "plan_collapse"
    if error_results(steps) >= ERROR_LIMIT:
        return "selector_hallucination"
    return "abandoned_run"


def stage_of(
    result: TaskResult, steps: Sequence[StepRecord], checks: Checks, *, answer_expected: bool
) -> str | None:
    """The stage where a failed run first went wrong (None when it passed).

    Step by step, the first of:
    - a reply with no usable action (`rejection`, no `action`)           -> parsing
    - an action a guardrail refused (`rejection` with an `action`)       -> guardrail
    - an action that raised on the page (`outcome` failed)               -> execution
    - an action that changed nothing and the model was told nothing      -> feedback
    Then from how the run ended: a halt of the model endpoint -> model; of the browser or a
    tool -> execution; the scroll breaker -> guardrail; `finished` with nothing when an
    answer was expected -> observation (the model never saw what it needed). Otherwise
    every step went through and was reported: the decision was wrong -> model.
    """
    if checks.passed:
        return None
    for step in steps:
        if step.verification_requested:
            continue  # the verify gate's own hold is not a failure
        if step.rejection and not step.action:
            return "parsing"
        if step.outcome == "rejected" or (step.rejection and step.action):
            return "guardrail"
        if step.outcome == "failed":
            return "execution"
        if step.outcome == "no_effect" and not (step.feedback or "").strip():
            return "feedback"
    if result.status in _HALTS:
        return _HALTS[result.status]
    if result.status == "scroll_breaker":
        return "guardrail"  # the breaker ended a search (needs_no_change off: maybe a live one)
    if result.status == "finished" and answer_expected and not (result.answer or "").strip():
        return "observation"
    return "model"


@dataclass(frozen=True)
class Labels:
    taxonomy: str | None
    stage: str | None

    @property
    def group(self) -> str | None:
        return GROUPS.get(self.taxonomy) if self.taxonomy else None


def label_task(
    result: TaskResult, steps: Sequence[StepRecord], *, answer_passed: bool, expected: Any
) -> Labels:
    """Both labels of one task folder's records, given its answer score."""
    checks = checks_of(result, answer_passed)
    answer_expected = expected not in (None, "", [])
    return Labels(
        classify(result, steps, checks), stage_of(result, steps, checks, answer_expected=answer_expected)
    )
