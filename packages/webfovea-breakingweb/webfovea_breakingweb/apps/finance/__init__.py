"""Kestrel, BreakingWeb's finance environment (seed 003 A.1: "finance (Robinhood)", a brokerage,
not a bank): a React page (react/envs/finance/, its bundle committed in react/dist/), a typed
state, its public API under /api/env/finance and its task generator over five tiers
(docs/breakingweb.md, "The finance site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.finance import long_tasks, reads
from webfovea_breakingweb.apps.finance import tasks as short_tasks
from webfovea_breakingweb.apps.finance.content import build
from webfovea_breakingweb.apps.finance.phishing import plant
from webfovea_breakingweb.apps.finance.routes import routes
from webfovea_breakingweb.apps.finance.state import FinanceState
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
    name="finance",
    title="Kestrel",
    path="/env/finance",
    api_base="/api/env/finance",
    lead="Watchlists, quotes, market and limit orders, positions, transfers, recurring investments and statements.",
    summary="a React brokerage: quotes and stock pages; orders reviewed then submitted; positions; transfers; documents",
    noun="order",
    state_model=FinanceState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
