"""threadly, BreakingWeb's social environment (seed 003 A.1: "social (Reddit)"): a React page
(react/envs/social/, its bundle committed in react/dist/), a typed state, its public API under
/api/env/social and its task generator over five tiers (docs/breakingweb.md, "The social site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.social import long_tasks, reads
from webfovea_breakingweb.apps.social import tasks as short_tasks
from webfovea_breakingweb.apps.social.content import build
from webfovea_breakingweb.apps.social.phishing import plant
from webfovea_breakingweb.apps.social.routes import routes
from webfovea_breakingweb.apps.social.state import SocialState
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
    name="social",
    title="threadly",
    path="/env/social",
    api_base="/api/env/social",
    lead="Communities, posts, nested comments, votes, saved items, messages and moderation.",
    summary="a React forum: feeds and search; posts with nested comments; votes, saves, messages; moderation",
    noun="post",
    state_model=SocialState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
