"""Seed 003's results over several runs (§3, Figure 4):

- Table 2: per primitive, each run's clean and intervention pass rate with the paired drop and n
  (pairs); GUI-only runs labelled `v-<model>` as the paper does (runs.py);
- Figure 4(a): the primitive vulnerability matrix, each cell the mean paired score drop
  (clean − intervention, partial credit) of a primitive's pairs in one run, with its 95% paired
  bootstrap interval; the run's largest drop is its row maximum;
- Figure 4(b): the stressor families ranked by failure mass (n × failure rate = failed
  intervention runs), pooled over the runs, over buckets with n ≥ 50 intervention runs; when no
  family reaches 50 the top 5 of all families are shown, marked as below the threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.paired import Pair, PairedStats, group
from webfovea_breakingweb.report.runs import Run

ALL = "all"  # Table 2's overall column
MIN_BUCKET = 50  # Figure 4(b): intervention runs a family needs, pooled over the runs
TOP = 5


def by_primitive(pairs: list[Pair]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = {}
    for p in pairs:
        out.setdefault(p.primitive, []).append(p)
    return dict(sorted(out.items()))


def by_family(pairs: list[Pair]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = {}
    for p in pairs:
        out.setdefault(p.family, []).append(p)
    return dict(sorted(out.items()))


def primitive_stats(runs: list[Run]) -> dict[str, dict[str, PairedStats]]:
    """{run label: {primitive | all: stats}}: computed once, read by Table 2 and Figure 4(a)."""
    return {
        r.label: {
            **{prim: group(ps, f"report|{r.label}|{prim}") for prim, ps in by_primitive(r.pairs).items()},
            ALL: group(r.pairs, f"report|{r.label}|{ALL}"),
        }
        for r in runs
    }


def primitives_of(stats: dict[str, dict[str, PairedStats]]) -> list[str]:
    return sorted({p for cells in stats.values() for p in cells if p != ALL})


def table2(runs: list[Run], stats: dict[str, dict[str, PairedStats]]) -> dict[str, Any]:
    cols = [*primitives_of(stats), ALL]
    rows = []
    for r in runs:
        cells = {}
        for prim in cols:
            s = stats[r.label].get(prim)
            cells[prim] = (
                None
                if s is None
                else {
                    "n": s.pairs,
                    "clean_pass": s.clean_pass,
                    "intervention_pass": s.intervention_pass,
                    "drop": s.delta,
                    "drop_ci": s.delta_ci,
                }
            )
        rows.append(
            {
                "run": r.label,
                "folder": str(r.folder),
                "model": r.model,
                "harness": r.harness,
                "observation": r.observation,
                "gui_only": r.gui_only,
                "cells": cells,
            }
        )
    return {"primitives": cols, "rows": rows}


def figure4a(runs: list[Run], stats: dict[str, dict[str, PairedStats]]) -> dict[str, Any]:
    prims = primitives_of(stats)
    matrix: dict[str, dict[str, Any]] = {prim: {} for prim in prims}
    row_max: dict[str, str | None] = {}
    for r in runs:
        best, best_v = None, None
        for prim in prims:
            s = stats[r.label].get(prim)
            if s is None:
                continue
            matrix[prim][r.label] = {
                "n": s.pairs,
                "score_drop": s.score_delta,
                "score_drop_ci": s.score_delta_ci,
                "pass_drop": s.delta,
            }
            if s.score_delta is not None and (best_v is None or s.score_delta > best_v):
                best, best_v = prim, s.score_delta
        row_max[r.label] = best
    return {"primitives": prims, "runs": [r.label for r in runs], "cells": matrix, "row_max": row_max}


def failure_mass(runs: list[Run]) -> list[dict[str, Any]]:
    """Every family, pooled over the runs: n intervention runs, failures, rate, mass = failures."""
    pooled = by_family([p for r in runs for p in r.pairs])
    out = []
    for fam, ps in pooled.items():
        failed = sum(not p.under.passed for p in ps)
        out.append(
            {
                "family": fam,
                "layer": ps[0].layer,
                "primitive": ps[0].primitive,
                "n": len(ps),
                "failure_rate": round(failed / len(ps), 4),
                "mass": failed,
            }
        )
    return sorted(out, key=lambda f: (-f["mass"], -f["failure_rate"], f["family"]))


def figure4b(runs: list[Run]) -> dict[str, Any]:
    return top_families(failure_mass(runs))


def top_families(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """Figure 4(b) from families ranked by failure mass (`failure_mass`'s rows): the top 5 of
    those with n ≥ 50, else the top 5 of all, marked as below the threshold."""
    eligible = [f for f in ranked if f["n"] >= MIN_BUCKET]
    below = not eligible
    note = (
        f"no family reaches n ≥ {MIN_BUCKET} intervention runs pooled over these runs: "
        f"the top {TOP} of all families are shown, below the paper's threshold"
        if below
        else None
    )
    return {
        "min_bucket": MIN_BUCKET,
        "below_threshold": below,
        "note": note,
        "top": (ranked if below else eligible)[:TOP],
        "ranking": ranked,
    }


def environment_of(seed: int) -> Callable[[str], str]:
    """base task id -> its app (`?` for a task this checkout does not have)."""
    from webfovea_breakingweb.tasks import stateful_tasks

    tasks = stateful_tasks(seed)
    return lambda tid: tasks[tid].app if tid in tasks else "?"


def figure4c(runs: list[Run], env_of: Callable[[str], str]) -> dict[str, Any]:
    cells: dict[str, dict[str, Any]] = {}
    for r in runs:
        per: dict[str, list[Pair]] = {}
        for base, p in zip(r.bases, r.pairs, strict=True):
            per.setdefault(env_of(base), []).append(p)
        for env, ps in sorted(per.items()):
            cells.setdefault(env, {})[r.label] = {
                "n": len(ps),
                "clean_pass": round(sum(p.clean.passed for p in ps) / len(ps), 4),
                "intervention_pass": round(sum(p.under.passed for p in ps) / len(ps), 4),
            }
    return {
        "environments": sorted(cells),
        "runs": [r.label for r in runs],
        "cells": dict(sorted(cells.items())),
    }
