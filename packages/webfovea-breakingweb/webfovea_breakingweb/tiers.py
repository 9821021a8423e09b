"""Difficulty tiers of the base tasks.

Seed 003 sorts its base tasks into five difficulty tiers (Figure 3b; Human-140 is "4 per
environment x difficulty cell": 7 x 5 x 4 = 140) but names neither the tiers nor their bounds.
Ours are by the actions a person needs (the plan's steps but the answer), bounds chosen here
(docs/breakingweb.md, "Numbers"): T1 1-2, T2 3-5, T3 6-10, T4 11-15, T5 16 and more. The apps
written before the React environments keep their three WebRetriever tiers (easy < 6, medium
6-15, hard > 15); both scales are valid values of a task's `targets["tier"]`.
"""

from __future__ import annotations

from typing import Any

TIERS = ("T1", "T2", "T3", "T4", "T5")
BOUNDS = (2, 5, 10, 15)  # the most actions of T1..T4; T5 is everything above
LEGACY_TIERS = ("easy", "medium", "hard")
VALID = (*TIERS, *LEGACY_TIERS)


def five_tier(actions: int) -> str:
    """The tier of a task a person does in `actions` actions (at least one)."""
    if actions < 1:
        raise ValueError(f"a task needs at least one action, not {actions}")
    return next((t for t, most in zip(TIERS, BOUNDS, strict=False) if actions <= most), TIERS[-1])


def actions(plan: list[dict[str, Any]]) -> int:
    return sum(1 for s in plan if s.get("op") != "answer")


def check_tier(task_id: str, tier: object) -> None:
    """A clear error for a tier outside both scales."""
    if tier is not None and tier not in VALID:
        raise ValueError(f"task {task_id}: tier {tier!r} is not one of {', '.join(VALID)}")
