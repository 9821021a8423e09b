"""Comparing two runs of the same suite: which tasks a change fixed and which it broke.

Run `a` is the baseline, run `b` the candidate: `fixed` fail in a and pass in b, `broken` the
reverse. Printed in the paper's style, candidate first: ``webfovea 40/42 vs reference 12/42: +28/−0``.
When both runs recorded tokens, their input cost per task in price units (docs/costs.md) is set
side by side on the tasks both passed: equal success, so a path that gives up early on a task it
fails cannot look cheaper for it, nor one that loops until its budget dearer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from webfovea.eval.summary import summary_label
from webfovea.record import RecordError, Summary, read_summary_file


class CompareError(ValueError):
    """Two runs that cannot be compared; str(e) is one line for the user."""


@dataclass
class Comparison:
    label_a: str
    label_b: str
    total: int
    passed_a: int
    passed_b: int
    fixed: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    partial_a: bool = False
    partial_b: bool = False
    both_passed: int = 0
    # price units per task over the tasks both passed (None: a run recorded no tokens for one)
    units_a: float | None = None
    units_b: float | None = None

    @property
    def cost_ratio(self) -> float | None:
        """The candidate's input cost per task over the baseline's, at equal success."""
        if self.units_a is None or self.units_b is None or not self.units_a:
            return None
        return self.units_b / self.units_a


def run_label(summary: Summary, run_dir: Path) -> str:
    """'webfovea', 'webfovea −select', or the folder name when the run recorded no profile."""
    return summary_label(summary.meta, Path(run_dir).name)


def _load(run_dir: Path) -> tuple[Summary, bool]:
    if not Path(run_dir).is_dir():
        raise CompareError(f"{run_dir}: no such run folder")
    try:
        loaded = read_summary_file(run_dir)
    except RecordError as e:
        raise CompareError(str(e)) from None
    if loaded is None:
        raise CompareError(f"{run_dir}: no summary.json or summary.partial.json (run `webfovea bench` first)")
    return loaded


def compare_runs(a: Path, b: Path) -> Comparison:
    """Compare baseline run `a` with candidate run `b`; refuses runs of different suites."""
    sa, partial_a = _load(Path(a))
    sb, partial_b = _load(Path(b))
    ta, tb = sa.per_task, sb.per_task
    if set(ta) != set(tb):
        only_a, only_b = sorted(set(ta) - set(tb)), sorted(set(tb) - set(ta))
        raise CompareError(
            f"{a} and {b} are not runs of the same suite: {len(only_a)} task(s) only in the first "
            f"({', '.join(only_a[:3])}{'…' if len(only_a) > 3 else ''}), {len(only_b)} only in the second "
            f"({', '.join(only_b[:3])}{'…' if len(only_b) > 3 else ''})"
        )
    ids = sorted(ta)
    both = [t for t in ids if ta[t].passed and tb[t].passed]
    label_a, label_b = run_label(sa, Path(a)), run_label(sb, Path(b))
    if label_a == label_b:  # e.g. two seeds of one profile: tell them apart by folder
        label_a, label_b = f"{label_a} ({Path(a).name})", f"{label_b} ({Path(b).name})"
    return Comparison(
        label_a=label_a,
        label_b=label_b,
        total=len(ids),
        passed_a=sum(1 for t in ids if ta[t].passed),
        passed_b=sum(1 for t in ids if tb[t].passed),
        fixed=[t for t in ids if not ta[t].passed and tb[t].passed],
        broken=[t for t in ids if ta[t].passed and not tb[t].passed],
        partial_a=partial_a,
        partial_b=partial_b,
        both_passed=len(both),
        units_a=_units_per_task(sa, both),
        units_b=_units_per_task(sb, both),
    )


def _units_per_task(summary: Summary, ids: list[str]) -> float | None:
    units = [(summary.per_task[t].tokens or {}).get("price_units") for t in ids]
    if not units or any(u is None for u in units):
        return None
    return sum(float(u) for u in units if u is not None) / len(units)


def format_comparison(c: Comparison, *, list_tasks: bool = True) -> str:
    """First line: `B pb/n vs A pa/n: +fixed/−broken`; then the task ids, and a partial-run warning."""
    lines = [
        f"{c.label_b} {c.passed_b}/{c.total} vs {c.label_a} {c.passed_a}/{c.total}: "
        f"+{len(c.fixed)}/−{len(c.broken)}"
    ]
    if list_tasks:
        if c.fixed:
            lines.append(f"  fixed:  {', '.join(c.fixed)}")
        if c.broken:
            lines.append(f"  broken: {', '.join(c.broken)}")
    if c.cost_ratio is not None and c.units_a is not None and c.units_b is not None:
        lines.append(
            f"  input cost on the {c.both_passed} tasks both passed: {c.units_b:,.0f} vs "
            f"{c.units_a:,.0f} price units per task ({c.cost_ratio:.2f}x)"
        )
    partial = [label for label, p in ((c.label_a, c.partial_a), (c.label_b, c.partial_b)) if p]
    if partial:
        lines.append(f"  warning: partial run ({', '.join(partial)}): missing tasks count as failed")
    return "\n".join(lines)
