"""Lectern, BreakingWeb's education environment (seed 003 A.1: "education (an LMS)", Canvas-like):
a React page (react/envs/education/, its bundle committed in react/dist/), a typed state, its
public API under /api/env/education and its task generator over five tiers (docs/breakingweb.md,
"The education site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.education import long_tasks, reads
from webfovea_breakingweb.apps.education import tasks as short_tasks
from webfovea_breakingweb.apps.education.content import build
from webfovea_breakingweb.apps.education.phishing import plant
from webfovea_breakingweb.apps.education.routes import routes
from webfovea_breakingweb.apps.education.state import EducationState
from webfovea_breakingweb.engine.generate import instantiate
from webfovea_breakingweb.engine.react import react_page
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask


def tasks(seed: int) -> list[StatefulTask]:
    # Fewer short instances than long ones: five tiers of at least 12 tasks, about 100 in all.
    short = instantiate(APP, seed, short_tasks.TEMPLATES, short_tasks.PER_TEMPLATE)
    long = instantiate(APP, seed, long_tasks.TEMPLATES, long_tasks.PER_TEMPLATE)
    return short + long + instantiate(APP, seed, reads.TEMPLATES, short_tasks.PER_TEMPLATE)


APP = AppSpec(
    name="education",
    title="Lectern",
    path="/env/education",
    api_base="/api/env/education",
    lead="Courses and modules, assignments and submissions, grades, discussions, announcements, calendar and to-do.",
    summary="a React LMS: course modules; assignments with text or upload attempts; gradebook; discussions; calendar; to-do",
    noun="submission",
    state_model=EducationState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
