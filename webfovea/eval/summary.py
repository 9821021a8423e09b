"""The run summary: every task's result scored against its expected answer, and the aggregates.

This module computes the Summary; record/ owns the file (`summary.json` for a complete run,
`summary.partial.json` otherwise — see record/run_files.py). Which model, profile and
components a run used come from what the run recorded (run.json, else the tasks'
result.json), never from the command line that asks for the summary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.table import Table

from webfovea.config import HarnessConfig, ablated_components
from webfovea.eval.costs import TokenTally, role_tallies, task_tally
from webfovea.eval.scoring import Score, score_answer
from webfovea.eval.taxonomy import GROUPS, label_task
from webfovea.eval.typed import score_typed
from webfovea.plugins import plugin_manager
from webfovea.record import (
    GroupStats,
    RecordError,
    RunInfo,
    Summary,
    SummaryMeta,
    TaskResult,
    TaskRow,
    check_result,
    read_run_info,
    read_summary_file,
    read_trajectory,
    write_labels,
    write_summary_file,
)
from webfovea.task import Task


def score_result(task: Task, result: TaskResult) -> Score:
    """A task passes only when the model finished it and the answer matches.

    Requiring `finished` matters for tasks whose expected answer is empty: a run that ran out
    of steps has no answer either, but it did not answer "nothing".
    """
    if result.state is not None:
        return _state_score(task, result)
    if result.status != "finished":
        return Score(False, "empty" if result.answer is None else "mismatch", f"ended with {result.status}")
    if task.answer_schema is not None:  # a typed answer: its JSON value, field by field
        if result.answer_value is None:
            return Score(False, "empty", "no answer met the schema")
        return score_typed(result.answer_value, task.answer)
    return score_answer(result.answer, task.answer)


def _state_score(task: Task, result: TaskResult) -> Score:
    """Stateful tasks are judged by the backend: state-changing ones by their obligations and
    invariants whatever the agent said; retrieval ones by the answer and an untouched state."""
    st = result.state
    assert st is not None
    error, passed = getattr(st, "error", None), bool(getattr(st, "passed", False))  # extra keys
    if error:
        return Score(False, "empty", f"state not scored: {error}")
    if getattr(st, "judged_by", None) == "environment":  # its own reward is the verdict (BrowserGym)
        return Score(passed, "state", "" if passed else f"the environment scored {st.score}")
    if task.state_changing:
        detail = (
            ""
            if passed
            else (f"obligations met {st.obligations_met}, {len(st.invariants_broken)} invariant(s) broken")
        )
        return Score(passed, "state", detail, credit=_credit(st, None))
    if result.status != "finished":
        return Score(False, "empty" if result.answer is None else "mismatch", f"ended with {result.status}")
    sc = score_answer(result.answer, task.answer)
    credit = _credit(st, sc.passed)
    if sc.passed and not passed:
        if st.invariants_broken:
            return Score(
                False,
                "state",
                f"answer right, but {len(st.invariants_broken)} unrelated change(s)",
                credit=credit,
            )
        return Score(
            False,
            "state",
            f"answer right, but its request obligations were not met ({st.obligations_met})",
            credit=credit,
        )
    return Score(sc.passed, sc.how, sc.detail, credit=credit)


def _credit(st: Any, answer_ok: bool | None) -> float | None:
    """Partial credit (seed 003's mean score): the share of the obligations met — for a
    retrieval task, the answer counts as one more obligation."""
    met = st.obligations_met
    flags = [bool(m) for m in met] if isinstance(met, list) else []
    if answer_ok is not None:
        flags.append(answer_ok)
    if flags:
        return round(sum(flags) / len(flags), 4)
    return st.score if isinstance(st.score, (int, float)) else None


def _rate(passed: int, total: int) -> float:
    return round(passed / total, 4) if total else 0.0


def _verification(results: list[TaskResult]) -> dict[str, Any] | None:
    """The verifier over the run (None when no task had it on): tasks checked, calls, rejections,
    tasks whose final answer stood disputed, tasks accepted at the first call."""
    checked = [r.verification for r in results if r.verification is not None]
    if not checked:
        return None
    verdicts = [v for c in checked for v in c.get("verdicts") or []]
    return {
        "tasks": len(checked),
        "calls": len(verdicts),
        "rejections": sum(1 for v in verdicts if v.get("verdict") == "reject"),
        "disputed": sum(1 for c in checked if c.get("disputed")),
        "accepted_first": sum(
            1 for c in checked if (c.get("verdicts") or [{}])[0].get("verdict") == "accept"
        ),
    }


def _count(values: Iterable[str | None]) -> dict[str, int]:
    return dict(sorted(Counter(v for v in values if v).items()))


def _group(rows: dict[str, TaskRow], key: str) -> dict[str, GroupStats]:
    counts: dict[str, list[int]] = {}
    for row in rows.values():
        values = getattr(row, key)
        names = values if isinstance(values, list) else ([values] if values else [])
        for name in names:
            c = counts.setdefault(name, [0, 0])
            c[0] += 1
            c[1] += int(row.passed)
    return {
        name: GroupStats(tasks=t, passed=p, success_rate=_rate(p, t))
        for name, (t, p) in sorted(counts.items())
    }


def _routes(run: RunInfo | None, results: list[TaskResult]) -> dict[str, dict[str, Any]]:
    """The routes the run recorded (run.json), else the first task's (result.json)."""
    if run is not None and run.routes:
        return run.routes
    return next((r.routes for r in results if r.routes), {})


def _roles(
    totals: dict[str, TokenTally], routes: dict[str, dict[str, Any]], prices: dict[str, float] | None
) -> dict[str, Any] | None:
    """summary.json `roles`: per role its route and its calls' tokens, price units and cost."""
    if not totals and not routes:
        return None
    out: dict[str, Any] = {}
    for role in dict.fromkeys([*routes, *totals]):
        tally = totals.get(role, TokenTally())
        out[role] = {**(routes.get(role) or {}), "calls": tally.steps, "tokens": tally.to_json(prices)}
    return out


def _with_units_per_task(tokens: dict[str, Any], per_task: dict[str, TaskRow]) -> dict[str, Any]:
    """The run's input price units per task that used the model (uncached 1x, write 1.25x, read 0.1x)."""
    used = sum(1 for r in per_task.values() if r.tokens)
    tokens["price_units_per_task"] = round(tokens["price_units"] / used, 1) if used else None
    return tokens


def compute_summary(run_dir: Path, tasks: list[Task], *, complete: bool, meta: dict[str, Any]) -> Summary:
    """Score every task of the run from its folder; a task without result.json is 'missing'.

    `meta` adds what only the caller knows (seed, suite, ...); model, profile and disabled
    come from the run's own records when it has them."""
    run_dir = Path(run_dir)
    per_task: dict[str, TaskRow] = {}
    results: list[TaskResult] = []
    prices = meta.get("prices")
    total = TokenTally()
    vision_total = TokenTally()  # a separate --vision-model's calls, priced apart
    role_totals: dict[str, TokenTally] = {}  # per role (models/routes.py); verify is the verifier's
    for task in tasks:
        result, problem = check_result(run_dir / task.task_id)
        expected = {
            "task": task.task,
            "expected": task.answer,
            "category": task.category,
            "failure_classes": list(task.failure_classes),
        }
        if result is None:
            row = TaskRow(
                **expected,
                status="unreadable" if problem else "missing",
                answer=None,
                score=0.0,
                passed=False,
                how="empty",
                steps=0,
                seconds=0.0,
                error=problem or "no result.json",
            )
        else:
            results.append(result)
            sc = score_result(task, result)
            labels = label_task(
                result,
                read_trajectory(run_dir / task.task_id, strict=False),
                answer_passed=sc.passed,
                expected=task.answer,
            )
            try:
                write_labels(run_dir / task.task_id, taxonomy=labels.taxonomy, stage=labels.stage)
            except OSError:
                pass  # a read-only run folder (an archive): the summary still carries the labels
            row = TaskRow(
                **expected,
                status=result.status,
                answer=result.answer,
                score=sc.score,
                passed=sc.passed,
                how=sc.how,
                steps=result.steps,
                seconds=round(result.seconds, 2),
                error=result.error,
                detail=sc.detail or None,
                taxonomy=labels.taxonomy,
                stage=labels.stage,
            )
            tally = task_tally(run_dir / task.task_id)
            if tally.steps:
                total.merge(tally)
                row.tokens = tally.to_json()
                row.cost = tally.cost(prices)
            vision_total.merge(task_tally(run_dir / task.task_id, vision=True))
            for role, role_tally in role_tallies(run_dir / task.task_id).items():
                role_totals.setdefault(role, TokenTally()).merge(role_tally)
        per_task[task.task_id] = row

    verifier_total = role_totals.get("verify", TokenTally())  # the verifier's calls, priced apart
    run_info = _run_info(run_dir)
    passed = sum(1 for r in per_task.values() if r.passed)
    missing = sum(1 for r in per_task.values() if r.status in ("missing", "unreadable"))
    summary = Summary(
        tasks=len(tasks),
        passed=passed,
        failed=len(tasks) - passed,
        success_rate=_rate(passed, len(tasks)),
        complete=complete,
        missing=missing,
        statuses=dict(Counter(r.status for r in per_task.values())),
        steps_total=sum(r.steps for r in per_task.values()),
        seconds_total=round(sum(r.seconds for r in per_task.values()), 2),
        meta=_meta(meta, results, run_info),
        per_task=per_task,
        per_failure_class=_group(per_task, "failure_classes"),
        per_category=_group(per_task, "category"),
        tokens=_with_units_per_task(total.to_json(prices), per_task) if total.steps else None,
        vision_tokens=vision_total.to_json(None) if vision_total.steps else None,
        verifier_tokens=verifier_total.to_json(prices) if verifier_total.steps else None,
        verification=_verification(results),
        roles=_roles(role_totals, _routes(run_info, results), prices),
        taxonomy=_count(r.taxonomy for r in per_task.values()),
        taxonomy_groups=_count(GROUPS.get(r.taxonomy) for r in per_task.values() if r.taxonomy),
        stages=_count(r.stage for r in per_task.values()),
        budget=run_info.budget if run_info is not None else None,
    )
    _add_sections(summary, per_task, tasks)
    if not complete:
        summary.note = (
            f"PARTIAL RUN: {summary.missing} of {summary.tasks} tasks have no result; "
            "the success rate counts them as failed"
        )
    return summary


def _add_sections(summary: Summary, per_task: dict[str, TaskRow], tasks: list[Task]) -> None:
    """Each plug-in's own block (`webfovea_summary_section`), under `extensions`; the keys a
    plug-in wrote at the top level in a former release are written there too for one more."""
    sections = plugin_manager().hook.webfovea_summary_section(per_task=per_task, tasks=tasks)
    for section in sections:
        if section is None:
            continue
        summary.extensions = {**(summary.extensions or {}), section.name: section.data}
        for key, value in section.deprecated_top_level.items():
            if key not in type(summary).model_fields:
                setattr(summary, key, value)


def build_summary(
    run_dir: Path, tasks: list[Task], *, complete: bool, meta: dict[str, Any]
) -> dict[str, Any]:
    """compute_summary as plain JSON data (what summary.json holds)."""
    return compute_summary(run_dir, tasks, complete=complete, meta=meta).model_dump(mode="json")


def _run_info(run_dir: Path) -> RunInfo | None:
    try:
        return read_run_info(run_dir)
    except RecordError:
        return None  # a damaged run.json: the results still say how they were made


def recorded_disabled(config: dict[str, Any] | None, fallback: list[str]) -> list[str]:
    """The components off under a recorded config (HarnessConfig.disabled, the one definition);
    `fallback` (the recorded list) when the config is absent or from an incompatible version."""
    if config is not None:
        try:
            return HarnessConfig.model_validate(config).disabled()
        except ValueError:
            pass
    return list(fallback)


def _meta(given: dict[str, Any], results: list[TaskResult], run: RunInfo | None) -> SummaryMeta:
    """The caller's meta, overridden by what the run recorded about itself."""
    data: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    starts = [r.started_at for r in results if r.started_at]
    ends = [r.ended_at for r in results if r.ended_at]
    data.setdefault("started", min(starts) if starts else None)
    data.setdefault("ended", max(ends) if ends else None)
    recorded: dict[str, Any] = {}
    if run is not None and (run.config is not None or run.profile is not None):
        recorded = {
            "model": run.model,
            "profile": run.profile,
            "disabled": recorded_disabled(run.config, run.disabled),
            "workers": run.workers,
        }
    else:
        first = next((r for r in results if r.config is not None), None) or next(
            (r for r in results if r.model or r.profile), None
        )
        if first is not None:
            recorded = {
                "model": first.model,
                "profile": first.profile,
                "disabled": recorded_disabled(first.config, first.disabled),
            }
    data.update({k: v for k, v in recorded.items() if v is not None})
    return SummaryMeta.model_validate(data)


def write_summary(run_dir: Path, tasks: list[Task], *, complete: bool, meta: dict[str, Any]) -> Path:
    """Compute and write summary.json (complete run) or summary.partial.json (not); return its path."""
    return write_summary_file(run_dir, compute_summary(run_dir, tasks, complete=complete, meta=meta))


def load_summary(run_dir: Path) -> tuple[dict[str, Any], bool] | None:
    """(summary as plain JSON data, is_partial), or None when the run has no summary file.
    Raises RecordError (a ValueError) when the file is unreadable. See record.read_summary_file."""
    loaded = read_summary_file(run_dir)
    if loaded is None:
        return None
    summary, partial = loaded
    return summary.model_dump(mode="json"), partial


def summary_label(meta: SummaryMeta, fallback: str) -> str:
    """'webfovea', 'webfovea −select', 'reference': the profile and what was turned off beyond it."""
    label = meta.profile or fallback
    extra = ablated_components(meta.profile, meta.disabled)
    return label + (" " + " ".join(f"−{d}" for d in extra) if extra else "")


def format_summary_table(summary: Summary | dict[str, Any]) -> Table:
    """The terminal view: overall, then per failure class and per category."""
    if isinstance(summary, dict):
        summary = Summary.model_validate(summary)
    title = f"{summary_label(summary.meta, 'run')} · model {summary.meta.model or '?'}"
    if not summary.complete:
        title += f" · PARTIAL ({summary.missing} tasks missing)"
    table = Table(title=title)
    table.add_column("group")
    table.add_column("passed", justify="right")
    table.add_column("success", justify="right")
    table.add_row(
        "all tasks", f"{summary.passed}/{summary.tasks}", f"{summary.success_rate:.1%}", style="bold"
    )
    for heading, groups in (("class", summary.per_failure_class), ("category", summary.per_category)):
        if groups:
            table.add_section()
        for name, g in groups.items():
            table.add_row(f"{heading}: {name}", f"{g.passed}/{g.tasks}", f"{g.success_rate:.1%}")
    return table
