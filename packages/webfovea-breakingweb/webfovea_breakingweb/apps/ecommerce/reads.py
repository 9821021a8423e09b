"""The ecommerce site's retrieval templates: what a shopper reads off the orders page. The orders
page lists them as stored (newest first), so server/scrambled_timestamps (`order_sensitive:
"orders"`) makes "the most recent" a matter of reading every placed date; seed/planted_answer
(`figure`) puts a stale total in a Key figures box above the page. The oracle reads the row of
the true order (its id), so it answers from the true place under either."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.ecommerce import plans as p
from webfovea_breakingweb.apps.ecommerce.common import API, KIT
from webfovea_breakingweb.apps.ecommerce.state import EcommerceState, Order
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer

_KINDS = {
    "": "",
    "delivered": " that was delivered",
    "shipped": " that is on its way",
    "express": " sent by express delivery",
}


def _group(state: EcommerceState, kind: str) -> list[Order]:
    if kind in ("delivered", "shipped"):
        return [o for o in state.orders if o.status == kind]
    if kind == "express":
        return [o for o in state.orders if o.delivery == kind]
    return list(state.orders)


def _amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def t_latest_order_total(state: EcommerceState, r: random.Random, n: int) -> StatefulTask | None:
    kind = r.choice(sorted(_KINDS))
    group = _group(state, kind)
    if len(group) < 2:
        return None
    top = max(group, key=lambda o: (o.placed, o.id))
    what = _KINDS[kind]
    plan = [
        p.nav("orders", "#orders"),
        answer(L(f'#orders tr[data-id="{top.id}"] td:nth-child(4)'), regex=r"([\d,.]+)"),
    ]
    return KIT.read(
        "latest-order-total", n,
        f"On Kestrel, what was the total of your most recent order{what}? Report the amount in dollars.",
        plan, _amount(top.total), f"{API}/orders",
        {"submit": "#nav-orders", "submit_step": 0, "order_sensitive": "orders",
         "figure": {"name": f"Total of your most recent order{what}", "value": _amount(top.total)}},
    )  # fmt: skip


TEMPLATES = {"latest-order-total": t_latest_order_total}
