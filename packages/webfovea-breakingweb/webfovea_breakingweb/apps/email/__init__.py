"""pinemail, BreakingWeb's email environment (seed 003 A.1: "email (Gmail)"): a React page
(react/envs/email/, its bundle committed in react/dist/), a typed state, its public API under
/api/env/email and its task generator over five tiers (docs/breakingweb.md, "The email site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.email import long_tasks, reads
from webfovea_breakingweb.apps.email import tasks as short_tasks
from webfovea_breakingweb.apps.email.content import build
from webfovea_breakingweb.apps.email.phishing import plant
from webfovea_breakingweb.apps.email.routes import routes
from webfovea_breakingweb.apps.email.state import EmailState
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
    name="email",
    title="pinemail",
    path="/env/email",
    api_base="/api/env/email",
    lead="Inbox, labels, conversations, search, compose, reply, forward, archive, drafts and sent mail.",
    summary="a React webmail: inbox and folders, labels, search; conversations with reply and forward; compose and drafts",
    noun="message",
    state_model=EmailState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
