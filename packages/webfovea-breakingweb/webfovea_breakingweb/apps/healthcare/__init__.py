"""Meadowcare MyHealth, BreakingWeb's healthcare environment (seed 003 A.1: "healthcare (a
patient portal)"): a React page (react/envs/healthcare/, its bundle committed in react/dist/),
a typed state, its public API under /api/env/healthcare and its task generator over five tiers
(docs/breakingweb.md, "The healthcare site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.healthcare import long_tasks, reads
from webfovea_breakingweb.apps.healthcare import tasks as short_tasks
from webfovea_breakingweb.apps.healthcare.content import build
from webfovea_breakingweb.apps.healthcare.phishing import plant
from webfovea_breakingweb.apps.healthcare.routes import routes
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.engine.generate import instantiate
from webfovea_breakingweb.engine.react import react_page
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask


def tasks(seed: int) -> list[StatefulTask]:
    return instantiate(
        APP,
        seed,
        {**short_tasks.TEMPLATES, **long_tasks.TEMPLATES, **reads.TEMPLATES},
        short_tasks.PER_TEMPLATE,
    )


APP = AppSpec(
    name="healthcare",
    title="Meadowcare MyHealth",
    path="/env/healthcare",
    api_base="/api/env/healthcare",
    lead="Appointments, messages to your care team, medications and refills, test results, billing and forms.",
    summary="a React patient portal: appointments with provider and slot pickers; care-team messages; refills; "
    "lab results with ranges; statements and payments; questionnaires, consents, profile and insurance",
    noun="appointment",
    state_model=HealthState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
