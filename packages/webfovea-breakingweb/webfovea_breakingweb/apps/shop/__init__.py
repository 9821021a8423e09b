"""A web shop (Hearth & Trail): search with facets and sort → product → cart → checkout with
address and delivery → orders → returns and cancellation. Its own state (products, cart,
addresses, orders, returns), API, page and task generator (docs/breakingweb.md, "The shop")."""

from __future__ import annotations

from webfovea_breakingweb.apps.shop import state_tasks
from webfovea_breakingweb.apps.shop.content import build
from webfovea_breakingweb.apps.shop.page import page
from webfovea_breakingweb.apps.shop.routes import routes
from webfovea_breakingweb.apps.shop.state import ShopState
from webfovea_breakingweb.apps.shop.tasks import PER_TEMPLATE, RETRIEVAL
from webfovea_breakingweb.engine.generate import instantiate
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask


def tasks(seed: int) -> list[StatefulTask]:
    return instantiate(APP, seed, {**RETRIEVAL, **state_tasks.TEMPLATES}, PER_TEMPLATE)


APP = AppSpec(
    name="shop",
    title="Hearth & Trail — shop",
    path="/app/shop",
    lead="Search the catalogue, fill a cart, check out, follow and return your orders.",
    summary="search, facets and sort → product → cart → checkout (address, delivery) → orders → returns",
    noun="order",
    state_model=ShopState,
    build=build,
    routes=routes,
    page=page,
    tasks=tasks,
)
