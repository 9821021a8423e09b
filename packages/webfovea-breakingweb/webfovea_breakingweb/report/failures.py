"""Seed 003 §4 over runs: how the failed intervention runs failed.

- Table 3: per run, the failed intervention runs counted by failure mode (eval/taxonomy.py's
  labels, summary.json's per-task `taxonomy`; `unlabelled` when the run recorded none);
- Table 4: per run, those failures split into belief (the agent declared success on a failed
  run: misleading success taken, premature done), action (no coherent success claim) and
  overreach (the obligations met, an invariant broken) — by the taxonomy's groups; a label in
  no group, or none, counts as `other` — and the false-positive rate of the done signal: among
  intervention runs that ended `finished`, the share that failed.
"""

from __future__ import annotations

from typing import Any

from webfovea.eval.taxonomy import GROUPS
from webfovea_breakingweb.report.runs import Run

UNLABELLED = "unlabelled"
CLASSES = ("belief", "action", "overreach", "other")


def _share(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def table3(runs: list[Run]) -> dict[str, Any]:
    rows = []
    for r in runs:
        counts: dict[str, int] = {}
        for p in r.pairs:
            if not p.under.passed:
                label = p.under.taxonomy or UNLABELLED
                counts[label] = counts.get(label, 0) + 1
        rows.append({"run": r.label, "failed": sum(counts.values()), "modes": dict(sorted(counts.items()))})
    modes = sorted({m for row in rows for m in row["modes"]})
    return {"modes": modes, "rows": rows}


def table4(runs: list[Run]) -> dict[str, Any]:
    rows = []
    for r in runs:
        failed = [p.under for p in r.pairs if not p.under.passed]
        counts = dict.fromkeys(CLASSES, 0)
        for row in failed:
            counts[(GROUPS.get(row.taxonomy) if row.taxonomy else None) or "other"] += 1
        finished = [p.under for p in r.pairs if p.under.status == "finished"]
        rows.append(
            {
                "run": r.label,
                "failed": len(failed),
                **{c: counts[c] for c in CLASSES},
                **{f"{c}_share": _share(counts[c], len(failed)) for c in CLASSES},
                "declared_done": len(finished),
                "done_fpr": _share(sum(not x.passed for x in finished), len(finished)),
            }
        )
    return {"classes": list(CLASSES), "rows": rows}
