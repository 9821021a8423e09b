"""roamly, BreakingWeb's travel environment (seed 003 A.1: "travel (Booking)"): stays, not tours.
A React page (react/envs/travel/, its bundle committed in react/dist/), a typed state, its public
API under /api/env/travel and its task generator over five tiers (docs/breakingweb.md, "The
travel site")."""

from __future__ import annotations

from webfovea_breakingweb.apps.travel import long_tasks, reads
from webfovea_breakingweb.apps.travel import tasks as short_tasks
from webfovea_breakingweb.apps.travel.content import build
from webfovea_breakingweb.apps.travel.phishing import plant
from webfovea_breakingweb.apps.travel.routes import routes
from webfovea_breakingweb.apps.travel.state import TravelState
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
    name="travel",
    title="roamly",
    path="/env/travel",
    api_base="/api/env/travel",
    lead="Stays: search with dates and guests, filters and a map, room types, bookings, trips and messages.",
    summary="a React stays site: search, filters, sort and map; stay pages with rooms; book, change, cancel, review; wishlist; messages",
    noun="booking",
    state_model=TravelState,
    build=build,
    routes=routes,
    page=react_page,
    phishing=plant,
    tasks=tasks,
)
