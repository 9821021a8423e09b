"""Backend-state scores for stateful runs, and the paired per-family statistics.

After the tasks ran, `attach_states` reads each stateful task's diff and audit from the
environment's control plane, scores the obligations (proving_ground/breakingweb/obligations.py) and writes `state`
and `family` into its result.json (through record/). `paired_stats` turns a paired run's
rows into per-family clean/intervention pass rates, the drop, the overturn rate among clean
passes and the done-signal false-positive rate, with bootstrap intervals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webfovea.proving_ground.breakingweb.obligations import needs_requests, score_state
from webfovea.record import FamilyStats, StateScore, TaskRow, read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task

BOOTSTRAP = 1000


def _extra(task: Task, key: str, default: Any = None) -> Any:
    return (task.model_extra or {}).get(key, default)


def is_stateful(task: Task) -> bool:
    return _extra(task, "stateful_app") is not None


def attach_states(run_dir: Path, tasks: list[Task], control: Any) -> int:
    """Score every stateful task of the run by its backend state; returns how many were scored.
    A result that already holds a state (a resumed run) keeps it: its session is gone."""
    scored = 0
    for task in tasks:
        if not is_stateful(task):
            continue
        task_dir = Path(run_dir) / task.task_id
        result = read_result(task_dir)
        if result is None or result.state is not None:
            continue
        result.family = _extra(task, "family")
        if not result.session_id:
            result.state = StateScore(passed=False, error="the task never bound a session (see its error)")
        else:
            obligations = _extra(task, "obligations", [])
            try:
                diff = control.diff(result.session_id)
                audit = control.audit(result.session_id)
                requests = control.requests(result.session_id) if needs_requests(obligations) else None
            except Exception as e:  # noqa: BLE001 - the result must still say what happened
                result.state = StateScore(
                    passed=False, error=f"the environment's state could not be read: {e}"
                )
            else:
                sc = score_state(diff["diff"], obligations, _extra(task, "noise", ["updated"]), requests)
                result.state = StateScore(
                    initial_sha256=diff["initial_sha256"],
                    final_sha256=diff["final_sha256"],
                    audit_sha256=audit["audit_sha256"],
                    diff_sha256=diff["diff_sha256"],
                    score=sc.score,
                    passed=sc.passed,
                    obligations_met=sc.obligations_met,
                    invariants_broken=sc.invariants_broken,
                )
        write_result(task_dir, result)
        scored += 1
    return scored


def live_state_judge(handle: Any) -> Callable[[Task, TaskResult], bool | None]:
    """For the progress line while the run goes on: a finished stateful task's verdict from its
    backend state now (obligations and invariants; a retrieval task's answer is checked by the
    caller). None for tasks that are not stateful or never bound a session."""

    def judge(task: Task, result: TaskResult) -> bool | None:
        if not is_stateful(task) or not result.session_id:
            return None
        obligations = _extra(task, "obligations", [])
        with handle.control() as control:
            diff = control.diff(result.session_id)["diff"]
            requests = control.requests(result.session_id) if needs_requests(obligations) else None
        return score_state(diff, obligations, _extra(task, "noise", ["updated"]), requests).passed

    return judge


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


def _bootstrap(pairs: list[tuple[int, int]], seed: str) -> list[float]:
    """95% interval of mean(clean - intervention) over resampled pairs (seeded: reproducible)."""
    if not pairs:
        return []
    rng = random.Random(seed)
    n = len(pairs)
    deltas = sorted(
        sum(c - i for c, i in (pairs[rng.randrange(n)] for _ in range(n))) / n for _ in range(BOOTSTRAP)
    )
    return [round(deltas[int(0.025 * BOOTSTRAP)], 4), round(deltas[int(0.975 * BOOTSTRAP) - 1], 4)]


def paired_stats(rows: dict[str, TaskRow], tasks: list[Task]) -> tuple[dict[str, FamilyStats], float | None]:
    """Per family: pairs (clean row, variant row) of the same task; and the run's done-signal FPR."""
    by_family: dict[str, list[tuple[TaskRow, TaskRow]]] = {}
    meta: dict[str, tuple[str, str]] = {}
    for task in tasks:
        fam, clean_id = _extra(task, "family"), _extra(task, "pair_of")
        if not fam or clean_id not in rows or task.task_id not in rows:
            continue
        by_family.setdefault(fam, []).append((rows[clean_id], rows[task.task_id]))
        meta[fam] = (_extra(task, "layer", ""), _extra(task, "primitive", ""))
    stats: dict[str, FamilyStats] = {}
    finished_all: list[bool] = []
    for fam in sorted(by_family):
        pairs = by_family[fam]
        clean = [int(c.passed) for c, _ in pairs]
        under = [int(v.passed) for _, v in pairs]
        clean_ok = [v for c, v in pairs if c.passed]
        finished = [v.passed for _, v in pairs if v.status == "finished"]
        finished_all += finished
        stats[fam] = FamilyStats(
            layer=meta[fam][0],
            primitive=meta[fam][1],
            pairs=len(pairs),
            clean_pass=_mean(clean),
            intervention_pass=_mean(under),
            delta=round(_mean(clean) - _mean(under), 4),
            delta_ci=_bootstrap(list(zip(clean, under, strict=True)), f"bootstrap|{fam}"),
            overturn_rate=_mean([float(not v.passed) for v in clean_ok]) if clean_ok else None,
            done_fpr=_mean([float(not ok) for ok in finished]) if finished else None,
        )
    fpr = _mean([float(not ok) for ok in finished_all]) if finished_all else None
    return stats, fpr


def family_chart(per_family: dict[str, dict[str, Any]], esc: Any) -> str:
    """The report's per-family chart: clean and intervention pass rates as paired bars, the drop
    with its interval, the overturn rate. Plain HTML (the report has no scripts)."""
    if not per_family:
        return ""
    rows = []
    for name, f in per_family.items():
        ci = f.get("delta_ci") or []
        interval = f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if len(ci) == 2 else ""
        overturn = "–" if f.get("overturn_rate") is None else f"{f['overturn_rate']:.0%}"
        bars = "".join(
            f'<div title="{label} {rate:.0%}" style="height:9px;margin:1px 0;width:{rate * 240:.0f}px;'
            f'background:{colour}"></div>'
            for label, rate, colour in (
                ("clean", f["clean_pass"], "#14507f"),
                ("intervention", f["intervention_pass"], "#d9822b"),
            )
        )
        rows.append(
            f"<tr><td>{esc(name)}</td><td>{esc(f['layer'])}</td><td>{esc(f['primitive'])}</td>"
            f"<td class=num>{f['pairs']}</td><td style='width:250px'>{bars}</td>"
            f"<td class=num>{f['clean_pass']:.0%} → {f['intervention_pass']:.0%}</td>"
            f"<td class=num>{f['delta']:+.2f}{interval}</td><td class=num>{overturn}</td></tr>"
        )
    return (
        "<h3 id=per-family>By intervention family (paired)</h3><p>Bars: clean (blue) and intervention "
        "(orange) pass rates.</p><table><tr><th>family</th><th>layer</th><th>primitive</th><th class=num>"
        "pairs</th><th>pass</th><th class=num>clean → intervention</th><th class=num>Δ [95% CI]</th>"
        f"<th class=num>overturned</th></tr>{''.join(rows)}</table>"
    )
