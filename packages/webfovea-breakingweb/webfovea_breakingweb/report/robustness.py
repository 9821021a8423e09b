"""Seed 003's robustness checks (§3), each a function of pairs:

- `spearman` / `ordering_agreement`: Spearman ρ between the orderings the pass-rate drop and
  the score drop induce over groups (the paper: the seven macro-primitive cells, ρ = 1.0);
- `threshold_variant`: the drop with "pass" read as score ≥ 0.5 instead of 1.0, and the share
  of the strict drop it keeps (the paper: 16.6 of 22.9 points);
- `balanced_macro`: each primitive's drop pooled over its pairs against the mean of its
  families' drops (every family weighted alike; the paper: they differ by < 3 points);
- `half_family_splits`: over seeded random halves of the families, how often each primitive
  is among the three largest drops (the paper: backtracking and verification stay top-3 in 81%).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.paired import Pair

SPLITS = 200
TOP_K = 3


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def pass_drop(pairs: list[Pair], threshold: float | None = None) -> float:
    """clean − intervention pass rate; with `threshold`, a run passes when its score reaches it."""

    def ok(row: Any) -> float:
        return float(row.passed if threshold is None else float(row.score) >= threshold)

    return _mean([ok(p.clean) - ok(p.under) for p in pairs])


def score_drop(pairs: list[Pair]) -> float:
    return _mean([float(p.clean.score) - float(p.under.score) for p in pairs])


def _ranks(xs: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's ρ (Pearson on mean ranks); None under 2 points or when one side is constant."""
    if len(xs) != len(ys):
        raise ValueError("spearman: the two lists differ in length")
    if len(xs) < 2:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = _mean(rx), _mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return round(cov / (vx * vy) ** 0.5, 4)


def ordering_agreement(groups: dict[str, list[list[Pair]]]) -> dict[str, Any]:
    """ρ between pass-drop and score-drop over groups; a group's drop is the macro-average over
    its cells (one cell per run: the paper's macro-primitive cells average over models)."""
    names = sorted(g for g, cells in groups.items() if any(cells))
    pd = [round(_mean([pass_drop(c) for c in groups[g] if c]), 4) for g in names]
    sd = [round(_mean([score_drop(c) for c in groups[g] if c]), 4) for g in names]
    return {"groups": names, "pass_drop": pd, "score_drop": sd, "rho": spearman(pd, sd)}


def threshold_variant(pairs: list[Pair], threshold: float = 0.5) -> dict[str, Any]:
    strict, lenient = pass_drop(pairs), pass_drop(pairs, threshold)
    return {
        "threshold": threshold,
        "pairs": len(pairs),
        "strict_drop": round(strict, 4),
        "threshold_drop": round(lenient, 4),
        "retained": round(lenient / strict, 4) if strict else None,
    }


def _split_by(pairs: list[Pair], key: Callable[[Pair], str]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = {}
    for p in pairs:
        out.setdefault(key(p), []).append(p)
    return dict(sorted(out.items()))


def balanced_macro(pairs: list[Pair]) -> dict[str, Any]:
    """Per primitive: pooled pass drop vs the mean of its families' pass drops."""
    rows = {}
    for prim, ps in _split_by(pairs, lambda p: p.primitive).items():
        fams = _split_by(ps, lambda p: p.family)
        pooled = pass_drop(ps)
        balanced = _mean([pass_drop(f) for f in fams.values()])
        rows[prim] = {
            "families": len(fams),
            "pooled": round(pooled, 4),
            "balanced": round(balanced, 4),
            "diff": round(balanced - pooled, 4),
        }
    worst = max((abs(r["diff"]) for r in rows.values()), default=0.0)
    return {"per_primitive": rows, "max_abs_diff": round(worst, 4)}


def top_primitives(pairs: list[Pair], k: int = TOP_K) -> list[str]:
    """The k primitives with the largest pass drop (ties: by name)."""
    drops = {prim: pass_drop(ps) for prim, ps in _split_by(pairs, lambda p: p.primitive).items()}
    return sorted(drops, key=lambda prim: (-drops[prim], prim))[:k]


def half_family_splits(
    pairs: list[Pair], splits: int = SPLITS, seed: str = "half-family-splits", k: int = TOP_K
) -> dict[str, Any]:
    """Over `splits` random halves of the families (seeded: reproducible; `random.sample` of
    half the sorted names), the share of halves in which each primitive is top-k by pass drop;
    `stable` is that share for the full data's top-k."""
    fams = _split_by(pairs, lambda p: p.family)
    names = sorted(fams)
    full = top_primitives(pairs, k)
    if len(names) < 2:
        return {"splits": 0, "families": len(names), "full_top": full, "top_share": {}, "stable": {}}
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for _ in range(splits):
        half = rng.sample(names, len(names) // 2)
        for prim in top_primitives([p for f in half for p in fams[f]], k):
            counts[prim] = counts.get(prim, 0) + 1
    share = {prim: round(n / splits, 4) for prim, n in sorted(counts.items())}
    return {
        "splits": splits,
        "families": len(names),
        "full_top": full,
        "top_share": share,
        "stable": {prim: share.get(prim, 0.0) for prim in full},
    }


def robustness(per_run: dict[str, list[Pair]]) -> dict[str, Any]:
    """All four over the runs: orderings macro-averaged over runs, the rest pooled."""
    pooled = [p for ps in per_run.values() for p in ps]
    prim_groups: dict[str, list[list[Pair]]] = {}
    fam_groups: dict[str, list[list[Pair]]] = {}
    for ps in per_run.values():
        for prim, cell in _split_by(ps, lambda p: p.primitive).items():
            prim_groups.setdefault(prim, []).append(cell)
        for fam, cell in _split_by(ps, lambda p: p.family).items():
            fam_groups.setdefault(fam, []).append(cell)
    return {
        "ordering_primitives": ordering_agreement(prim_groups),
        "ordering_families": ordering_agreement(fam_groups),
        "threshold_0_5": threshold_variant(pooled),
        "threshold_0_5_per_run": {label: threshold_variant(ps) for label, ps in per_run.items()},
        "balanced_macro": balanced_macro(pooled),
        "half_family_splits": half_family_splits(pooled),
    }
