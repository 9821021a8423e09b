"""What the education site's task templates share: finding instances in the seeded term and
building a `StatefulTask` with its five-scale tier and the targets the families aim at."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.education import views as v
from webfovea_breakingweb.apps.education.state import Assignment, EducationState, Entry, Topic
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here
from webfovea_proving_ground.plan import Step

API = "/api/env/education"
PAGE = "/env/education"
BRAND = "Lectern"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."


KIT = kit.TaskKit("education", PAGE, SIGN_IN)
write_targets = KIT.write_targets


def code(state: EducationState, cid: str) -> str:
    return str(v.course_of(state, cid).code)


def open_work(state: EducationState, kind: str, *, started: bool = False) -> list[Assignment]:
    """Coming assignments that take `kind` not handed in yet, or (`started`) any handed in
    once with attempts left."""
    out = []
    for a in state.assignments:
        used = len(v.attempts(state, a.id))
        if kind not in a.types:
            continue
        if (started and used == 1 < a.attempts) or (not started and used == 0 and a.due >= v.NOW):
            out.append(a)
    return out


def graded(state: EducationState) -> list[tuple[Assignment, str]]:
    """Assignments whose last attempt is graded, with that attempt's id."""
    out = []
    for a in state.assignments:
        subs = v.attempts(state, a.id)
        if subs and subs[-1].score is not None:
            out.append((a, subs[-1].id))
    return out


def by_unique_author(state: EducationState, did: str) -> list[Entry]:
    """The discussion's entries whose author wrote only that one there (an instruction names it so)."""
    es = [e for e in state.entries if e.topic == did]
    return [e for e in es if sum(1 for x in es if x.author == e.author) == 1]


def topics_with_entry(state: EducationState) -> list[Topic]:
    return [t for t in state.topics if by_unique_author(state, t.id)]


def make(
    template: str, n: int, instruction: str, plan: list[Step], obligations: list[dict[str, Any]],
    targets: dict[str, Any],
) -> StatefulTask:  # fmt: skip
    """One instance `n` of `template` (id `education-<template>-NN`): a state task ending in "done"."""
    return kit.state_task(
        "education", template, n, f"On {BRAND}, {instruction}{SIGN_IN}", plan, obligations, targets
    )
