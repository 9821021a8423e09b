"""Backend-state scores for stateful runs.

After the tasks ran, `attach_states` reads each stateful task's diff and audit from the
environment's control plane, scores the obligations (webfovea_breakingweb/obligations.py)
and writes `state` and `family` into its result.json (through record/). The paired statistics
are paired.py's; the report's charts report_charts.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from webfovea.record import StateScore, read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task
from webfovea_breakingweb.obligations import needs_requests, score_state


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
            result.state = state_of(control, result.session_id, task)
        write_result(task_dir, result)
        scored += 1
    return scored


def state_of(control: Any, session_id: str, task: Task) -> StateScore:
    """The backend-state score of a session now: its diff scored against the task's obligations
    and invariants (an unreadable state is a failed score saying why)."""
    obligations = _extra(task, "obligations", [])
    try:
        diff = control.diff(session_id)
        audit = control.audit(session_id)
        requests = control.requests(session_id) if needs_requests(obligations) else None
    except Exception as e:  # noqa: BLE001 - the result must still say what happened
        return StateScore(passed=False, error=f"the environment's state could not be read: {e}")
    sc = score_state(diff["diff"], obligations, _extra(task, "noise", ["updated"]), requests)
    return StateScore(
        initial_sha256=diff["initial_sha256"],
        final_sha256=diff["final_sha256"],
        audit_sha256=audit["audit_sha256"],
        diff_sha256=diff["diff_sha256"],
        score=sc.score,
        passed=sc.passed,
        obligations_met=sc.obligations_met,
        invariants_broken=sc.invariants_broken,
    )


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
