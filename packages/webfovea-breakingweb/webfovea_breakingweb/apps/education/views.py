"""What the education site's read views compute from the state: a course's gradebook (the
latest attempt of each assignment, its status, the weighted current grade), the to-do list,
the calendar of one month and the submission history of an assignment.

Times compare to the sites' epoch (engine/determinism.py), never the wall clock, so the same
state always reads the same."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.education.state import Assignment, EducationState, Submission
from webfovea_breakingweb.engine.determinism import stamp

WEIGHTS = {"Homework": 30, "Quizzes": 10, "Essays": 20, "Exams": 40}  # percent of the final grade
NOW = stamp(0)


def course_of(state: EducationState, cid: str) -> Any:
    for c in state.courses:
        if c.id == cid:
            return c
    raise LookupError(f"No course {cid}.")


def attempts(state: EducationState, aid: str) -> list[Submission]:
    return sorted((s for s in state.submissions if s.assignment == aid), key=lambda s: s.attempt)


def status(state: EducationState, a: Assignment) -> str:
    subs = attempts(state, a.id)
    if subs:
        last = subs[-1]
        return "graded" if last.score is not None else ("late" if last.late else "submitted")
    return "missing" if a.due < NOW else "upcoming"


def assignment_row(state: EducationState, a: Assignment) -> dict[str, Any]:
    subs = attempts(state, a.id)
    return {
        **a.model_dump(), "status": status(state, a), "score": subs[-1].score if subs else None,
        "attempts_used": len(subs), "course_code": course_of(state, a.course).code,
    }  # fmt: skip


def gradebook(state: EducationState, cid: str) -> dict[str, Any]:
    """Rows in due order and the weighted current grade over the graded work (None: nothing graded)."""
    rows = [
        assignment_row(state, a)
        for a in sorted(state.assignments, key=lambda a: (a.due, a.id))
        if a.course == cid
    ]
    earned: dict[str, float] = {}
    possible: dict[str, float] = {}
    for row in rows:
        if row["score"] is not None:
            earned[row["group"]] = earned.get(row["group"], 0) + row["score"]
            possible[row["group"]] = possible.get(row["group"], 0) + row["points"]
    weight = sum(WEIGHTS[g] for g in possible)
    total = sum(WEIGHTS[g] * earned[g] / possible[g] for g in possible) / weight * 100 if weight else None
    groups = [{"group": g, "weight": w, "percent": round(earned[g] / possible[g] * 100, 1) if g in possible else None}
              for g, w in WEIGHTS.items()]  # fmt: skip
    return {"rows": rows, "groups": groups, "total": None if total is None else round(total, 1)}


def todo(state: EducationState) -> list[dict[str, Any]]:
    """Coming assignments not handed in nor dismissed, and open to-do notes, by date."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for a in state.assignments:
        if a.due >= NOW and not a.dismissed and not attempts(state, a.id):
            row = {"kind": "assignment", "id": a.id, "title": a.title, "date": a.due, "course": a.course,
                   "course_code": course_of(state, a.course).code, "points": a.points}  # fmt: skip
            out.append((a.due, a.id, row))
    for n in state.notes:
        if not n.done:
            code = course_of(state, n.course).code if n.course else ""
            out.append((n.date, n.id, {"kind": "note", "id": n.id, "title": n.title, "date": n.date,
                                       "course": n.course, "course_code": code}))  # fmt: skip
    return [row for _, _, row in sorted(out, key=lambda x: (x[0][:10], x[1]))]


def month(state: EducationState, which: str) -> dict[str, Any]:
    """One month's calendar (`which` YYYY-MM): events and assignment due dates, by day."""
    if (
        len(which) != 7
        or which[4] != "-"
        or not (which[:4] + which[5:]).isdigit()
        or not 1 <= int(which[5:]) <= 12
    ):
        raise ValueError(f"month {which!r} is not YYYY-MM")
    codes = {c.id: c.code for c in state.courses}
    items = [{"kind": "event", "id": e.id, "title": e.title, "date": e.date, "time": e.time, "course": e.course,
              "course_code": codes.get(e.course, "")} for e in state.events if e.date.startswith(which)]  # fmt: skip
    items += [{"kind": "due", "id": a.id, "title": a.title, "date": a.due[:10], "time": a.due[11:16],
               "course_code": codes[a.course]} for a in state.assignments if a.due.startswith(which)]  # fmt: skip
    return {"month": which, "items": sorted(items, key=lambda x: (x["date"], x["time"], x["id"]))}
