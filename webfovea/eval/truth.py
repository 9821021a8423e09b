"""Ground truth of one run of a proving-ground task, from what the server knows.

A task declares `nav_truth` (a list of predicates, eval/predicates.py) over its session's
request log — the sites' own record, never the harness's capture, so a capture bug cannot
hide. `nav_ok` = every predicate holds on that log; `answer_ok` = the existing answer scorer;
`valid` = the truth could be established (the task declares predicates and its session's log
was read). Written into result.json (`truth`) through the record writer.
"""

from __future__ import annotations

from typing import Any

from webfovea.eval.predicates import Predicate, evaluate
from webfovea.eval.summary import score_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task


def nav_truth_of(task: Task) -> list[Predicate] | None:
    """The task's declared navigation truth, or None when it declares none."""
    value = (task.model_extra or {}).get("nav_truth")
    return list(value) if isinstance(value, list) and value else None


def fault_of(task: Task) -> str | None:
    value = (task.model_extra or {}).get("fault")
    return str(value) if value else None


def compute_truth(task: Task, result: TaskResult, log: list[dict[str, Any]] | None,
                  log_error: str | None = None) -> dict[str, Any]:
    """{nav_ok, answer_ok, valid, details, why}: `log` is the session's server-side request log."""
    answer_ok = score_result(task, result).passed
    predicates = nav_truth_of(task)
    if predicates is None:
        return {"nav_ok": None, "answer_ok": answer_ok, "valid": False, "details": [],
                "why": "the task declares no navigation truth"}
    if log is None:
        return {"nav_ok": None, "answer_ok": answer_ok, "valid": False, "details": [],
                "why": log_error or "no server-side request log for this run (no session)"}
    verdict = evaluate(predicates, log)
    return {"nav_ok": verdict.passed, "answer_ok": answer_ok, "valid": True,
            "details": [d.to_json() for d in verdict.details], "why": None}
