"""`bench breakingweb --harness human`: each task taken by a person at a headed browser.

Per task: the control plane makes the task's session (clean, or with its intervention), the app
opens in one window and the task window (pages.py) in another; the person works in the app and
ends with Done (and an answer) or Infeasible. That is the cold attempt; it is scored at once by
the backend evaluator (scoring.state_of, eval.summary.score_result: the agents' own), then the
session is reset to its initial state (the control plane's reset) and the same task is taken
again: the warm attempt, scored the same way. Each attempt's wall time (from the page shown to
the ending, capped by `--time-cap`) and raw browser events (browser.py) are kept.

result.json holds the cold attempt (its state already scored, so the run's scoring hook keeps
it); human_attempts.json holds both (attempts.py). A resumed run keeps the tasks already taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from webfovea.eval.summary import score_result
from webfovea.record import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task
from webfovea_breakingweb.people.attempts import (
    Attempt,
    RawEvents,
    TaskAttempts,
    read_attempts,
    write_attempts,
)
from webfovea_breakingweb.people.browser import HeadedBrowser
from webfovea_breakingweb.people.pages import task_window
from webfovea_breakingweb.scoring import state_of

MODEL = "human"
PROFILE = "harness-human"
TIME_CAP_S = 600.0


class PeopleRunError(ValueError):
    """A people's run that cannot start or continue (no display, another harness's folder)."""


def run_people(tasks: list[Task], out_dir: Path, run: Mapping[str, Any], *, time_cap_s: float) -> bool:
    """Every task not taken yet; True (complete) unless the person closed the browser."""
    from webfovea_breakingweb.suite import breakingweb_task

    handle = run.get("handle")
    if handle is None:
        raise PeopleRunError("--harness human needs the run's sites (not --no-sites)")
    seed = int(run.get("seed", 0))
    todo = []
    for task in tasks:
        earlier = None if run.get("fresh") else read_result(Path(out_dir) / task.task_id)
        if earlier is not None and earlier.profile != PROFILE:
            raise PeopleRunError(
                f"{out_dir} holds results of another harness ({earlier.profile}); give this run its own --out"
            )
        if earlier is None or not _taken(Path(out_dir) / task.task_id):
            todo.append(task)  # a task left when the browser closed is taken again, cold first
    if not todo:
        return True
    with HeadedBrowser.launch(Path(out_dir)) as browser, handle.control() as control:
        for i, task in enumerate(todo, 1):
            extra = task.model_extra or {}
            live = breakingweb_task(handle, seed, extra.get("pair_of") or task.task_id, extra.get("family"))
            task_dir = Path(out_dir) / task.task_id
            task_dir.mkdir(parents=True, exist_ok=True)
            record, result = take_task(
                browser, control, handle.main_url, task, live, (i, len(todo)), time_cap_s
            )
            write_attempts(task_dir, record)
            write_result(task_dir, result)
            if any(a.ending == "closed" for a in record.attempts):
                return False
    return True


def _taken(task_dir: Path) -> bool:
    rec = read_attempts(task_dir)
    return rec is not None and all(
        (a := rec.get(which)) is not None and a.ending != "closed" for which in ("cold", "warm")
    )


def take_task(  # noqa: PLR0913 - the browser, the control plane, and the task in both forms
    browser: HeadedBrowser,
    control: Any,
    main_url: str,
    task: Task,
    live: Task,
    place: tuple[int, int],
    time_cap_s: float,
) -> tuple[TaskAttempts, TaskResult]:
    """The cold and the warm attempt at one task: (both, the cold one as result.json)."""
    assert live.session is not None
    started = datetime.now(UTC).isoformat()
    body = control.create(live.task_id, live.session.seed, live.session.variant)
    sid, cookie = str(body["session_id"]), body["cookie"]
    browser.set_cookie(cookie["name"], cookie["value"], main_url)
    family = (task.model_extra or {}).get("family")
    attempts, cold_result = [], None
    for which in ("cold", "warm"):
        if which == "warm":
            control.reset(sid)  # the backend reset: the same initial state, interventions rebuilt
        page = task_window(live.task, which, place[0], place[1])
        ending, answer, seconds, events = browser.attempt(str(live.website), page, time_cap_s)
        status = (
            "finished"
            if ending in ("done", "infeasible")
            else ("timeout" if ending == "timeout" else "error")
        )
        state = state_of(control, sid, task)
        result = TaskResult(
            task_id=task.task_id,
            status=status,  # type: ignore[arg-type]
            answer=answer if ending == "done" else None,
            task=task.task,
            website=task.website,
            model=MODEL,
            profile=PROFILE,
            session_id=sid,
            state=state,
            family=family,
            seconds=round(seconds, 3),
            started_at=started,
            ended_at=datetime.now(UTC).isoformat(),
            error="the browser was closed during the attempt" if ending == "closed" else None,
        )
        verdict = score_result(task, result)
        attempts.append(
            Attempt(
                attempt=which,
                ending=ending,
                status=status,
                answer=result.answer,
                passed=verdict.passed,
                score=verdict.credit,
                state_score=state.score,
                seconds=round(seconds, 3),
                events=events,
                session_id=sid,
            )
        )
        if which == "cold":
            cold_result = result
        if ending == "closed":
            break
    assert cold_result is not None
    return TaskAttempts(task_id=task.task_id, family=family, attempts=attempts), cold_result


__all__ = ["MODEL", "PeopleRunError", "RawEvents", "run_people", "take_task"]
