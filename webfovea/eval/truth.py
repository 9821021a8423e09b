"""Ground truth of one run of a proving-ground task, from what the server knows.

A task declares `nav_truth` (a list of predicates, webfovea/predicates.py) over its session's
request log — the sites' own record, never the harness's capture, so a capture bug cannot
hide. `nav_ok` = every predicate holds on that log; `answer_ok` = the existing answer scorer;
`valid` = the truth could be established (the task declares predicates and its session's log
was read). Written into result.json (`truth`) through the record writer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from webfovea.eval.summary import score_result
from webfovea.predicates import Predicate, evaluate
from webfovea.record import read_result, update_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task


def nav_truth_of(task: Task) -> list[Predicate] | None:
    """The task's declared navigation truth, or None when it declares none."""
    value = (task.model_extra or {}).get("nav_truth")
    return list(value) if isinstance(value, list) and value else None


def fault_of(task: Task) -> str | None:
    value = (task.model_extra or {}).get("fault")
    return str(value) if value else None


def compute_truth(
    task: Task, result: TaskResult, log: list[dict[str, Any]] | None, log_error: str | None = None
) -> dict[str, Any]:
    """{nav_ok, answer_ok, valid, details, why}: `log` is the session's server-side request log."""
    answer_ok = score_result(task, result).passed
    predicates = nav_truth_of(task)
    if predicates is None:
        return {
            "nav_ok": None,
            "answer_ok": answer_ok,
            "valid": False,
            "details": [],
            "why": "the task declares no navigation truth",
        }
    if log is None:
        return {
            "nav_ok": None,
            "answer_ok": answer_ok,
            "valid": False,
            "details": [],
            "why": log_error or "no server-side request log for this run (no session)",
        }
    verdict = evaluate(predicates, log)
    return {
        "nav_ok": verdict.passed,
        "answer_ok": answer_ok,
        "valid": True,
        "details": [d.to_json() for d in verdict.details],
        "why": None,
    }


def write_truths(
    tasks: list[Task], run_dir: Path, fetch_log: Callable[[str], list[dict[str, Any]]]
) -> dict[str, int]:
    """Compute and write `truth` (and `fault`) into each task's result.json. `fetch_log(session_id)`
    reads the session's server-side log (ControlClient.requests). Returns counts."""
    counts = {"valid": 0, "invalid": 0, "nav_ok": 0}
    for task in tasks:
        folder = Path(run_dir) / task.task_id
        result = read_result(folder)
        if result is None:
            continue
        log, why = None, None
        if result.session_id:
            try:
                log = fetch_log(result.session_id)
            except Exception as e:  # the sites are gone or the session was dropped: say so, go on
                why = f"the session's request log could not be read: {type(e).__name__}: {str(e)[:200]}"
        truth = compute_truth(task, result, log, why)
        update_result(folder, truth=truth, fault=fault_of(task))
        counts["valid" if truth["valid"] else "invalid"] += 1
        counts["nav_ok"] += bool(truth["nav_ok"])
    return counts
