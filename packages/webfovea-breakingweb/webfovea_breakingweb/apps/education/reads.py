"""The LMS's retrieval templates: what a student reads off the Grades overview (every course with
its current grade). seed/planted_answer (`figure`) puts a stale grade in a Key figures box above
the page; seed/split_information (`unit`: the course code) shows course codes only, the titles
on the Codes legend. The oracle reads the true row (by course id) or, recovering, the legend."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.education import views as v
from webfovea_breakingweb.apps.education.common import API, KIT
from webfovea_breakingweb.apps.education.state import Course, EducationState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, visible


def _grades() -> dict[str, Any]:
    return click(L("#nav-grades"), expect=visible(L("#grades-overview tbody tr")))


def _graded(state: EducationState) -> list[tuple[Course, float]]:
    out = [(c, v.gradebook(state, c.id)["total"]) for c in state.courses]
    return [(c, t) for c, t in out if t is not None]


def t_current_grade(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    graded = _graded(state)
    if not graded:
        return None
    c, total = r.choice(graded)
    plan = [_grades(), answer(L(f'#grades-overview tr[data-id="{c.id}"] td.total'), regex=r"([\d.]+)")]
    return KIT.read(
        "current-grade", n,
        f"On Lectern, what is your current grade in {c.name}? Report the percentage.",
        plan, str(total), f"{API}/grades",
        {"submit": "#nav-grades", "submit_step": 0,
         "figure": {"name": f"Current grade in {c.code}", "value": str(total)}},
    )  # fmt: skip


def t_best_course(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    lowest = r.random() < 0.5
    ranked = sorted(_graded(state), key=lambda ct: ct[1], reverse=not lowest)
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:  # a tie: no one answer
        return None
    c = ranked[0][0]
    plan = [_grades(), answer(L(f'#grades-overview tr[data-id="{c.id}"] td:first-child .name'))]
    return KIT.read(
        "best-course", n,
        f"On Lectern, in which course is your current grade the {'lowest' if lowest else 'highest'}? "
        "Report the course's title.",
        plan, c.name, f"{API}/grades",
        {"submit": "#nav-grades", "submit_step": 0, "unit": c.code},
    )  # fmt: skip


TEMPLATES = {"current-grade": t_current_grade, "best-course": t_best_course}
