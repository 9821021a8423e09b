"""The shop's task generator: 15 templates instantiated from the seeded content (per seed).

Retrieval (answer + a request obligation: the answer came from the right search): price by
name, cheapest in-stock by category and brand, top rated in a category, count by facets,
stock of a product, an order's total, the most recent order (of a kind). State tasks
(state_tasks.py; obligations + invariants over products, cart, orders, returns): add to cart,
buy, buy the cheapest, buy two to a new address, reorder, return, cancel, fill the cart and
change a quantity. Tiers by a person's actions (plan steps but the answer): easy < 6, medium
6–15, hard > 15.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.apps.shop import plans
from webfovea_breakingweb.apps.shop.content import CATEGORIES
from webfovea_breakingweb.apps.shop.state import Order, Product, ShopState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, any_fetch, click, visible

API = "/api/shop"
PER_TEMPLATE = 8
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
Make = Callable[[ShopState, Any, int], StatefulTask | None]


def tier(plan: list[dict[str, Any]]) -> str:
    n = sum(1 for s in plan if s["op"] != "answer")
    return "easy" if n < 6 else "medium" if n <= 15 else "hard"


def _eur(cents: int) -> str:
    return f"€{cents / 100:.2f}"


def _task(tid: str, instruction: str, plan: list[dict[str, Any]], **kw: Any) -> StatefulTask:
    targets = kw.pop("targets")
    return StatefulTask(
        task_id=tid,
        app="shop",
        instruction=instruction + SIGN_IN,
        plan=plan,
        noise=[],
        targets={"tier": tier(plan), "redo_from": 0, **targets},
        **kw,
    )


def _retrieval(
    tid: str, instruction: str, plan: list[dict[str, Any]], value: str, **query: str
) -> StatefulTask:
    submit = max(i for i, s in enumerate(plan) if s.get("target", {}).get("selector") == "#search-go")
    return _task(
        tid,
        instruction,
        plan,
        category="complete data retrieval",
        failure_classes=["select"] if any(s["op"] == "select" for s in plan) else [],
        state_changing=False,
        answer=value,
        obligations=[
            {
                "request": {
                    **any_fetch(f"{API}/products", "the search carried the asked filters", **query),
                    "status": {"lt": 400},
                }
            }
        ],
        targets={
            "main": ["GET", f"{API}/products"],
            "submit": "#search-go",
            "submit_step": submit,
            "form": True,
        },
    )


def _in_stock(state: ShopState) -> list[Product]:
    return [p for p in state.products if p.stock >= 3]


# -- retrieval ------------------------------------------------------------------------------


def t_price(state: ShopState, r: Any, n: int) -> StatefulTask:
    p = r.choice(state.products)
    plan = [*plans.search(q=p.name), answer(L(f'#results tr[data-id="{p.id}"] td.price'))]
    return _retrieval(
        f"shop-price-{n:02d}",
        f"In the Hearth & Trail shop, what does the “{p.name}” cost? Report the price.",
        plan,
        _eur(p.price),
        q=p.name,
    )


def _groups(state: ShopState) -> list[tuple[str, str, list[Product]]]:
    out = []
    for cat in CATEGORIES:
        for brand in sorted({p.brand for p in state.products if p.category == cat}):
            out.append((cat, brand, [p for p in state.products if p.category == cat and p.brand == brand]))
    return out


def t_cheapest(state: ShopState, r: Any, n: int) -> StatefulTask | None:
    cat, brand, ps = r.choice(_groups(state))
    live = sorted((p for p in ps if p.stock > 0), key=lambda p: (p.price, p.id))
    if len(live) < 2 or live[0].price == live[1].price:
        return None
    plan = [
        *plans.search(category=cat, brand=brand, sort="price-asc", stock=True),
        answer(L("#results tbody tr:first-child td.name")),
    ]
    return _retrieval(
        f"shop-cheapest-{n:02d}",
        f"In the Hearth & Trail shop, which {brand} product in the category {cat} that is in stock is the cheapest? Report its name.",
        plan, live[0].name, category=cat, brand=brand, stock="1",
    )  # fmt: skip


def t_top_rated(state: ShopState, r: Any, n: int) -> StatefulTask | None:
    cat = r.choice(list(CATEGORIES))
    ps = sorted((p for p in state.products if p.category == cat), key=lambda p: (-p.rating, -p.reviews, p.id))
    if ps[0].rating == ps[1].rating:
        return None
    plan = [*plans.search(category=cat, sort="rating"), answer(L("#results tbody tr:first-child td.name"))]
    return _retrieval(
        f"shop-toprated-{n:02d}",
        f"In the Hearth & Trail shop, which product in the category {cat} has the highest customer rating? Report its name.",
        plan, ps[0].name, category=cat, sort="rating",
    )  # fmt: skip


def t_count(state: ShopState, r: Any, n: int) -> StatefulTask:
    cat, brand, ps = r.choice(_groups(state))
    plan = [*plans.search(category=cat, brand=brand), answer(L("#result-info"), regex=r"^(\d+) products")]
    return _retrieval(
        f"shop-count-{n:02d}",
        f"How many {brand} products does the Hearth & Trail shop list in the category {cat}? Report the number.",
        plan, str(len(ps)), category=cat, brand=brand,
    )  # fmt: skip


def t_stock(state: ShopState, r: Any, n: int) -> StatefulTask:
    p = r.choice(_in_stock(state))
    plan = [*plans.search(q=p.name), plans.open_product(p), answer(L("#p-stock"), regex=r"(\d+)")]
    return _retrieval(
        f"shop-stock-{n:02d}",
        f"How many units of “{p.name}” does the Hearth & Trail shop have in stock? Report the number.",
        plan,
        str(p.stock),
        q=p.name,
    )


def t_order_total(state: ShopState, r: Any, n: int) -> StatefulTask:
    o = r.choice(state.orders)
    plan = [*plans.open_order(o.id), answer(L("#order-total"))]
    return _task(
        f"shop-ordertotal-{n:02d}",
        f"In your Hearth & Trail account, what was the total of the order you placed on {o.placed}? Report the amount.",
        plan,
        category="complete data retrieval",
        state_changing=False,
        answer=_eur(o.total),
        obligations=[
            {"request": {**any_fetch(f"{API}/orders/{o.id}", "the order was opened"), "status": {"lt": 400}}}
        ],
        targets={"main": ["GET", f"{API}/orders/{o.id}"], "submit": "a.view", "submit_step": 1},
    )


_DELIVERY_WORDS = {"standard": " with standard delivery", "express": " with express delivery",
                   "pickup": " for pick-up at a store"}  # fmt: skip


def _order_groups(state: ShopState) -> list[tuple[str, list[Order]]]:
    """Your orders as a person narrows them: all, by status, by delivery option, by city."""
    groups: list[tuple[str, list[Order]]] = [("", list(state.orders))]
    for status in ("delivered", "shipped", "placed"):
        groups.append((f" that is {status}", [o for o in state.orders if o.status == status]))
    for option, what in _DELIVERY_WORDS.items():
        groups.append((what, [o for o in state.orders if o.delivery == option]))
    for city in sorted({o.city for o in state.orders}):
        groups.append((f" addressed to {city}", [o for o in state.orders if o.city == city]))
    return [(w, g) for w, g in groups if len(g) >= 2]


def t_latest_order(state: ShopState, r: Any, n: int) -> StatefulTask:
    """The most recent order (of a kind): the orders page lists them newest first as stored, so
    under server/scrambled_timestamps (`order_sensitive: "orders"`) the placed dates must be read."""
    what, group = r.choice(_order_groups(state))
    top = max(group, key=lambda o: o.placed)  # placed dates are distinct (content.py)
    plan = [
        click(L("#nav-orders"), expect=visible(L("#orders"))),
        answer(L(f'#orders tr[data-id="{top.id}"] td.id')),
    ]
    return _task(
        f"shop-latestorder-{n:02d}",
        f"In your Hearth & Trail account, which is your most recent order{what}? Report its order number.",
        plan,
        category="complete data retrieval",
        state_changing=False,
        answer=top.id,
        obligations=[{"request": {**any_fetch(f"{API}/orders", "the orders were shown"), "status": {"lt": 400}}}],
        targets={"main": ["GET", f"{API}/orders"], "submit": "#nav-orders", "submit_step": 0,
                 "order_sensitive": "orders"},
    )  # fmt: skip


RETRIEVAL: dict[str, Make] = {
    "price": t_price,
    "cheapest": t_cheapest,
    "toprated": t_top_rated,
    "count": t_count,
    "stock": t_stock,
    "ordertotal": t_order_total,
    "latestorder": t_latest_order,
}
