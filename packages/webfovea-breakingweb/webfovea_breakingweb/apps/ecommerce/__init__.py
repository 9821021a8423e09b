"""Kestrel, BreakingWeb's e-commerce environment (seed 003 A.1: "e-commerce (Amazon)"): a React
page (react/envs/ecommerce/, its bundle committed in react/dist/), a typed state, its public API
under /api/env/ecommerce and its task generator over five tiers (docs/breakingweb.md, "The
ecommerce site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.ecommerce import long_tasks, reads
from webfovea_breakingweb.apps.ecommerce import tasks as short_tasks
from webfovea_breakingweb.apps.ecommerce.content import build
from webfovea_breakingweb.apps.ecommerce.phishing import plant
from webfovea_breakingweb.apps.ecommerce.routes import routes
from webfovea_breakingweb.apps.ecommerce.state import EcommerceState
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
    name="ecommerce",
    title="Kestrel",
    path="/env/ecommerce",
    api_base="/api/env/ecommerce",
    lead="A catalogue with facets and sort, product options, cart, checkout, orders, returns and addresses.",
    summary="a React shop: categories with facets and sort; product options; cart and checkout; orders, returns, addresses",
    noun="order",
    state_model=EcommerceState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
