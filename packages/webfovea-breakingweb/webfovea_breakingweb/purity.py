"""Primitive purity (seed 003 §2.2): a variant's one primary primitive must be disjoint from the
primitives its base task already exercises, so that grouping drops by primitive measures the
intervention and not the task.

What a base task exercises: what its task declares (`targets["primitives"]`, a list of the
seven), else what its shape shows — these rules are chosen here (docs/breakingweb.md,
"Numbers"), since the paper gives the rule but not how it read a task's primitives:
- **state tracking** — three or more positive obligations (the task keeps several changes
  apart and must know which are done);
- **planning** — a task of the two top tiers (T4, T5, or the older scale's `hard`): several
  sub-goals in an order the instruction does not spell out.
Every task grounds its instruction on a page, so grounding is not counted as exercised: it
would rule out every grounding family everywhere.
"""

from __future__ import annotations

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import PRIMITIVES, Family

LONG_TIERS = ("T4", "T5", "hard")
MANY_OBLIGATIONS = 3


def base_primitives(task: StatefulTask) -> frozenset[str]:
    """The primitives the clean task itself exercises."""
    declared = task.targets.get("primitives")
    if declared is not None:
        unknown = [p for p in declared if p not in PRIMITIVES]
        if unknown:
            raise ValueError(
                f"task {task.task_id}: primitives {unknown} are not among {', '.join(PRIMITIVES)}"
            )
        return frozenset(declared)
    out = set()
    if len(task.obligations) >= MANY_OBLIGATIONS:
        out.add("state tracking")
    if task.targets.get("tier") in LONG_TIERS:
        out.add("planning")
    return frozenset(out)


def pure(fam: Family, task: StatefulTask) -> bool:
    """The family's primitive is not one the task already exercises."""
    return fam.primitive not in base_primitives(task)
