"""Paired statistics of a BreakingWeb run, as seed 003 reports them (§3, §4).

A pair is a base task's clean run and one of its intervention runs (same instruction, seed
and success criterion, each from fresh state). Over any group of pairs — one family, one
primitive, one layer, one primitive × layer cell, all of them —:

- pass rate (score 1.0 and nothing broken) and mean score (partial credit: the share of
  obligations met; summary.json's per-task `score`) on both conditions;
- Δ on both: clean − intervention, each with a 95% paired bootstrap interval (1,000 resamples
  of the pairs, seeded by the group's name: a run re-scored gives the same interval);
- overturned share: among pairs whose clean run passed, the share that failed under the
  intervention;
- done-signal false-positive rate: among intervention runs that ended with `finished`, the
  share that failed.

And per primitive, the failure taxonomy of the failed intervention runs (eval/taxonomy.py's
labels, summary.json's per-task `taxonomy`). Reads summary rows and task extras only: a run is
re-scored from its records without the apps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from webfovea.record import TaskRow
from webfovea.record.atomic import Record
from webfovea.stats import bootstrap
from webfovea.task import Task


class PairedStats(Record):
    """A group of pairs in a paired run (docs/breakingweb.md): the same base tasks run clean and
    under an intervention, each from fresh state. Pass = score 1.0 and nothing broken; score =
    the share of obligations met (partial credit)."""

    pairs: int
    clean_pass: float
    intervention_pass: float
    delta: float  # clean_pass - intervention_pass
    delta_ci: list[float] = Field(default_factory=list)  # 95% paired bootstrap interval of delta
    clean_score: float | None = None  # mean score, clean runs
    intervention_score: float | None = None  # mean score, intervention runs
    score_delta: float | None = None  # clean_score - intervention_score
    score_delta_ci: list[float] = Field(default_factory=list)  # its 95% paired bootstrap interval
    overturn_rate: float | None = None  # among pairs whose clean run passed: share failed under the family
    done_fpr: float | None = None  # among intervention runs that finished: share that failed


class FamilyStats(PairedStats):
    """One intervention family in a paired run: its pairs, with the family's layer and primitive."""

    layer: str
    primitive: str


@dataclass(frozen=True)
class Pair:
    family: str
    layer: str
    primitive: str
    clean: TaskRow
    under: TaskRow


def _extra(task: Task, key: str, default: Any = None) -> Any:
    return (task.model_extra or {}).get(key, default)


def pairs_of(rows: dict[str, TaskRow], tasks: list[Task]) -> list[Pair]:
    """Every (clean, intervention) pair whose two runs are in the summary."""
    out = []
    for task in tasks:
        fam, clean_id = _extra(task, "family"), _extra(task, "pair_of")
        if fam and clean_id in rows and task.task_id in rows:
            out.append(
                Pair(
                    fam,
                    _extra(task, "layer", ""),
                    _extra(task, "primitive", ""),
                    rows[clean_id],
                    rows[task.task_id],
                )
            )
    return out


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


def group(pairs: list[Pair], name: str) -> PairedStats:
    clean = [float(p.clean.passed) for p in pairs]
    under = [float(p.under.passed) for p in pairs]
    clean_s = [float(p.clean.score) for p in pairs]
    under_s = [float(p.under.score) for p in pairs]
    solved = [p for p in pairs if p.clean.passed]
    finished = [p for p in pairs if p.under.status == "finished"]
    return PairedStats(
        pairs=len(pairs),
        clean_pass=_mean(clean),
        intervention_pass=_mean(under),
        delta=round(_mean(clean) - _mean(under), 4),
        delta_ci=bootstrap([c - u for c, u in zip(clean, under, strict=True)], f"bootstrap|{name}"),
        clean_score=_mean(clean_s),
        intervention_score=_mean(under_s),
        score_delta=round(_mean(clean_s) - _mean(under_s), 4),
        score_delta_ci=bootstrap(
            [c - u for c, u in zip(clean_s, under_s, strict=True)], f"bootstrap-score|{name}"
        ),
        overturn_rate=_mean([float(not p.under.passed) for p in solved]) if solved else None,
        done_fpr=_mean([float(not p.under.passed) for p in finished]) if finished else None,
    )


def _by(pairs: list[Pair], key: Callable[[Pair], str]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = {}
    for p in pairs:
        out.setdefault(key(p), []).append(p)
    return dict(sorted(out.items()))


def per_family(pairs: list[Pair]) -> dict[str, FamilyStats]:
    out = {}
    for fam, ps in _by(pairs, lambda p: p.family).items():
        out[fam] = FamilyStats(layer=ps[0].layer, primitive=ps[0].primitive, **group(ps, fam).model_dump())
    return out


def matrix(pairs: list[Pair]) -> dict[str, dict[str, PairedStats]]:
    """{primitive: {layer: stats}}, the cells that hold pairs."""
    return {
        prim: {layer: group(cell, f"{prim}|{layer}") for layer, cell in _by(ps, lambda p: p.layer).items()}
        for prim, ps in _by(pairs, lambda p: p.primitive).items()
    }


def taxonomy_per_primitive(pairs: list[Pair]) -> dict[str, dict[str, int]]:
    """Failed intervention runs counted by failure label (`unlabelled` when none), per primitive."""
    out: dict[str, dict[str, int]] = {}
    for prim, ps in _by(pairs, lambda p: p.primitive).items():
        counts: dict[str, int] = {}
        for p in ps:
            if not p.under.passed:
                label = p.under.taxonomy or "unlabelled"
                counts[label] = counts.get(label, 0) + 1
        out[prim] = dict(sorted(counts.items()))
    return out


def paired_summary(rows: dict[str, TaskRow], tasks: list[Task]) -> dict[str, Any]:
    """The Summary fields of a paired run (docs/records.md): per family, per primitive, per
    layer, the primitive × layer matrix, overall, the done-signal FPR and the taxonomy."""
    pairs = pairs_of(rows, tasks)
    overall = group(pairs, "all")
    return {
        "per_family": per_family(pairs),
        "per_primitive": {
            k: group(v, f"primitive|{k}") for k, v in _by(pairs, lambda p: p.primitive).items()
        },
        "per_layer": {k: group(v, f"layer|{k}") for k, v in _by(pairs, lambda p: p.layer).items()},
        "primitive_layer": matrix(pairs),
        "paired": overall,
        "done_signal_fpr": overall.done_fpr,
        "overturned_share": overall.overturn_rate,
        "failures_per_primitive": taxonomy_per_primitive(pairs),
    }
