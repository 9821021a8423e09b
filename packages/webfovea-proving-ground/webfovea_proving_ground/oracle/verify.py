"""How the oracle answers the harness's `verify` note (guardrails/verify.py).

The oracle never checks the site's state by itself: a model that trusts the "Saved" toast is
what the proving ground measures. Only when the harness holds its `finished` and says so (the
note opening with `feedback.notes.VERIFY_OPENING`, read from the feedback like any model reads
it) does it look at the page the harness loaded and compare:

- the plan's answer step may carry `verify`: `{"state": E, "redo_from": N}` or
  `{"state": E, "redo": [steps]}` (docs/contracts.md §1). E is an expectation over the
  page now shown (the list holds the saved title, the date field reads back as typed);
- E holds: it finishes again with the same answer;
- E does not hold: it follows the redo steps (default: the plan from `redo_from`, 0 when
  absent, up to the answer) and then answers again;
- no `verify` on the answer step: it glances and finishes again (a model with nothing to
  compare against trusts what it did).
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from webfovea.feedback.notes import VERIFY_OPENING
from webfovea_proving_ground.oracle.grounding import expectation_holds

Step = dict[str, Any]


def asked_to_verify(feedback: str | None) -> bool:
    """The harness held the finish and asked for a look at the real state."""
    return bool(feedback) and VERIFY_OPENING in str(feedback)


def _answer_index(plan: list[Step]) -> int | None:
    for i in range(len(plan) - 1, -1, -1):
        if plan[i].get("op") == "answer":
            return i
    return None


async def plan_after_check(page: Page, plan: list[Step]) -> list[Step] | None:
    """None when the shown state matches (finish again); else the steps to follow now: the
    missing operations, then the answer (without its `verify`, so the oracle does not loop)."""
    at = _answer_index(plan)
    if at is None:
        return None
    answer = plan[at]
    spec = answer.get("verify")
    if not isinstance(spec, dict) or not spec.get("state"):
        return None
    if await expectation_holds(page, spec["state"]):
        return None
    redo = spec.get("redo")
    if redo is None:
        redo = plan[int(spec.get("redo_from", 0)) : at]
    return [*(dict(s) for s in redo), {k: v for k, v in answer.items() if k != "verify"}]
