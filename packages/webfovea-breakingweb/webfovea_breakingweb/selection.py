"""Which base tasks the official catalogue holds (seed 003: 519 pairs over seven environments,
five tiers): per environment its quota (environments.QUOTAS), spread over the tiers.

The rule, per official environment with quota q:
1. its candidate tasks are those at least one chosen family applies to with primitive purity
   (purity.py): a task no variant can stress cleanly is no pair;
2. the quota is spread over the tiers its tasks come in as evenly as it goes (the earlier tiers
   take the remainder); a tier with too few tasks gives all it has and its shortfall goes, in
   the same way, to the tiers that still have tasks;
3. within a tier, tasks are taken in the order of sha256(task|seed|official-select): a task
   added to an environment moves at most one other out of its own tier cell, none elsewhere.
An environment with fewer candidates than its quota gives them all (`shortfall()` says so).
An app outside the official seven, named with `--apps`, gives every candidate task.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.environments import QUOTAS
from webfovea_breakingweb.tiers import LEGACY_TIERS, TIERS

NO_TIER = "-"
TIER_ORDER = (*TIERS, *LEGACY_TIERS, NO_TIER)


def tier_of(task: StatefulTask) -> str:
    tier = task.targets.get("tier")
    return str(tier) if tier else NO_TIER


def _rank(task_id: str, seed: int, what: str) -> str:
    return hashlib.sha256(f"{task_id}|{seed}|{what}".encode()).hexdigest()


def spread(quota: int, available: dict[str, int]) -> dict[str, int]:
    """How many tasks each tier gives: `quota` as evenly as the tiers' `available` counts allow
    (earlier tiers take the remainder; a short tier's shortfall goes to the others)."""
    take = dict.fromkeys(available, 0)
    left = min(quota, sum(available.values()))
    while left > 0:
        open_tiers = [t for t in sorted(available, key=TIER_ORDER.index) if take[t] < available[t]]
        share, extra = divmod(left, len(open_tiers))
        for i, tier in enumerate(open_tiers):
            give = min(share + (1 if i < extra else 0), available[tier] - take[tier])
            take[tier] += give
            left -= give
    return take


def select(tasks: dict[str, StatefulTask], candidates: set[str], seed: int) -> list[str]:
    """The official base tasks among `candidates` (ids of `tasks`), sorted by id."""
    cells: dict[tuple[str, str], list[str]] = defaultdict(list)
    for tid in candidates:
        cells[(tasks[tid].app, tier_of(tasks[tid]))].append(tid)
    out: list[str] = []
    for app in sorted({app for app, _ in cells}):
        tiers = {tier: len(ids) for (a, tier), ids in cells.items() if a == app}
        quota = QUOTAS.get(app, sum(tiers.values()))  # an extension app: all it has
        for tier, n in spread(quota, tiers).items():
            ranked = sorted(cells[(app, tier)], key=lambda t: _rank(t, seed, "official-select"))
            out += ranked[:n]
    return sorted(out)


def shortfall(selected: list[str], tasks: dict[str, StatefulTask]) -> dict[str, int]:
    """{official environment: pairs short of its quota} for those that fall short."""
    have: dict[str, int] = defaultdict(int)
    for tid in selected:
        have[tasks[tid].app] += 1
    return {app: QUOTAS[app] - have[app] for app in QUOTAS if app in have and have[app] < QUOTAS[app]}
