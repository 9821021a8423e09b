"""The shop's state-task templates (obligations over products, cart, orders, returns)."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.shop import plans
from webfovea_breakingweb.apps.shop.state import DELIVERY, REASONS, Order, Product, ShopState
from webfovea_breakingweb.apps.shop.tasks import API, Make, _groups, _in_stock, _task
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, answer, click, fill, select, text_has, value_is

NEW_ADDRESSES = (
    {"name": "Jon Moe", "street": "7 Birch Lane", "city": "Riverton", "postcode": "30418"},
    {"name": "Siri Dahl", "street": "221 Market Street", "city": "Lakeside", "postcode": "62790"},
    {"name": "Per Lunde", "street": "3 Old Mill Road", "city": "Hillcrest", "postcode": "18254"},
)
DELIVERY_WORDS = {
    "standard": "standard delivery",
    "express": "express delivery",
    "pickup": "pick-up at a store",
}


def _line(p: Product, qty: int) -> dict[str, Any]:
    return {"product": p.id, "name": p.name, "qty": qty, "price": p.price}


def _order_task(
    tid: str,
    instruction: str,
    state: ShopState,
    buys: list[tuple[Product, int]],
    plan: list[dict[str, Any]],
    where: dict[str, str],
    delivery: str,
) -> StatefulTask:
    oid = next_id(state.orders, "O-")
    obligations: list[dict[str, Any]] = [
        {"entity": "orders", "op": "create", "count": 1,
         "fields": {"lines": [_line(p, q) for p, q in buys], **where, "delivery": delivery, "status": "placed"}},
        *({"entity": "products", "op": "update", "id": p.id, "fields": {"stock": p.stock - q}} for p, q in buys),
    ]  # fmt: skip
    submit = len(plan) - 2
    redo = max(i for i, s in enumerate(plan) if s.get("target", {}).get("selector") == "#nav-cart")
    return _task(
        tid, instruction, plan,
        failure_classes=["select", "fill"],
        obligations=obligations,
        targets={
            "main": ["POST", f"{API}/checkout"], "write": ["POST", f"{API}/checkout"], "list": ["GET", f"{API}/orders"],
            "submit": "#place-order",
            "submit_step": submit, "redo_from": redo, "form": True, "verify_path": "/app/shop#/orders",
            "readback": text_has(L(f'#orders tr[data-id="{oid}"] td.status'), "placed"),
        },
    )  # fmt: skip


def _addr(state: ShopState, r: Any) -> tuple[tuple[str, str], dict[str, str], str]:
    a = r.choice(state.addresses)
    where = {"name": a.name, "street": a.street, "city": a.city, "postcode": a.postcode}
    return (f"{a.label} — {a.street}, {a.city}", a.id), where, a.label


def t_add(state: ShopState, r: Any, n: int) -> StatefulTask:
    p = r.choice(_in_stock(state))
    qty = r.randint(1, 3)
    plan = [*plans.add_to_cart(p, qty), answer(L("#in-cart"), regex=r"(\d+)")]
    return _task(
        f"shop-addcart-{n:02d}",
        f"Put {qty} × “{p.name}” into your cart at the Hearth & Trail shop (do not check out). Report how many are in your cart then.",
        plan,
        failure_classes=["fill"],
        obligations=[{"entity": "cart", "op": "create", "count": 1, "fields": {"product": p.id, "qty": qty}}],
        targets={
            "main": ["POST", f"{API}/cart"], "write": ["POST", f"{API}/cart"], "list": ["GET", f"{API}/products/{p.id}"],
            "submit": "#add-to-cart",
            "submit_step": len(plan) - 2, "form": True, "verify_path": f"/app/shop#/product/{p.id}",
            "readback": text_has(L("#in-cart"), f"In your cart: {qty}"),
        },
    )  # fmt: skip


def t_buy(state: ShopState, r: Any, n: int) -> StatefulTask:
    p = r.choice(_in_stock(state))
    qty = r.randint(1, 2)
    option, where, label = _addr(state, r)
    delivery = r.choice(list(DELIVERY))
    oid = next_id(state.orders, "O-")
    plan = [
        *plans.add_to_cart(p, qty),
        *plans.checkout(option, None, delivery, oid),
        answer(L("#toast .ref")),
    ]
    text = (f"Buy {qty} × “{p.name}” at the Hearth & Trail shop, delivered to your saved {label} address with "
            f"{DELIVERY_WORDS[delivery]}. Report the order number.")  # fmt: skip
    return _order_task(f"shop-buy-{n:02d}", text, state, [(p, qty)], plan, where, delivery)


def t_buy_cheapest(state: ShopState, r: Any, n: int) -> StatefulTask | None:
    cat, brand, ps = r.choice(_groups(state))
    live = sorted((p for p in ps if p.stock > 0), key=lambda p: (p.price, p.id))
    if len(live) < 2 or live[0].price == live[1].price:
        return None
    p = live[0]
    option, where, label = _addr(state, r)
    oid = next_id(state.orders, "O-")
    plan = [
        *plans.search(category=cat, brand=brand, sort="price-asc", stock=True),
        plans.open_product(p),
        click(L("#add-to-cart"), expect=text_has(L("#in-cart"), "In your cart: 1")),
        *plans.checkout(option, None, "pickup", oid),
        answer(L("#toast .ref")),
    ]
    text = (f"At the Hearth & Trail shop, buy one of the cheapest {brand} product in the category {cat} that is in "
            f"stock, for pick-up at a store (billing to your saved {label} address). Report the order number.")  # fmt: skip
    return _order_task(f"shop-buycheapest-{n:02d}", text, state, [(p, 1)], plan, where, "pickup")


def t_buy_two_new_address(state: ShopState, r: Any, n: int) -> StatefulTask:
    a, b = r.sample(_in_stock(state), 2)
    qa, qb = r.randint(1, 2), r.randint(2, 3)
    where = r.choice(NEW_ADDRESSES)
    delivery = r.choice(("standard", "express"))
    oid = next_id(state.orders, "O-")
    plan = [
        *plans.add_to_cart(a, qa),
        *plans.add_to_cart(b, qb),
        *plans.checkout(None, where, delivery, oid),
        answer(L("#toast .ref")),
    ]
    text = (f"At the Hearth & Trail shop, buy {qa} × “{a.name}” and {qb} × “{b.name}” in one order, sent by "
            f"{DELIVERY_WORDS[delivery]} to {where['name']}, {where['street']}, {where['postcode']} {where['city']} "
            "(a new address: type it in). Report the order number.")  # fmt: skip
    return _order_task(f"shop-buytwo-{n:02d}", text, state, [(a, qa), (b, qb)], plan, where, delivery)


def t_reorder(state: ShopState, r: Any, n: int) -> StatefulTask | None:
    by_id = {p.id: p for p in state.products}
    o: Order = r.choice([o for o in state.orders if len(o.lines) >= 2])
    if any(by_id[ln.product].stock < ln.qty for ln in o.lines) or o.delivery == "pickup":
        return None
    addr = next(a for a in state.addresses if a.street == o.street)
    oid = next_id(state.orders, "O-")
    plan = [*plans.open_order(o.id)]
    for ln in o.lines:
        plan += plans.add_to_cart(by_id[ln.product], ln.qty)
    option = (f"{addr.label} — {addr.street}, {addr.city}", addr.id)
    plan += [*plans.checkout(option, None, o.delivery, oid), answer(L("#toast .ref"))]
    where = {"name": addr.name, "street": addr.street, "city": addr.city, "postcode": addr.postcode}
    text = (f"At the Hearth & Trail shop, order again everything in your order {o.id} (same products and quantities), "
            f"to the same saved address and with the same delivery option. Report the new order number.")  # fmt: skip
    buys = [(by_id[ln.product], ln.qty) for ln in o.lines]
    return _order_task(f"shop-reorder-{n:02d}", text, state, buys, plan, where, o.delivery)


def t_return(state: ShopState, r: Any, n: int) -> StatefulTask:
    o = r.choice([o for o in state.orders if o.status == "delivered"])
    ln = r.choice(o.lines)
    qty = r.randint(1, ln.qty)
    reason = r.choice(REASONS)
    row = f'#order-lines tr[data-product="{ln.product}"]'
    plan = [*plans.open_order(o.id)]
    if ln.qty > 1:
        plan.append(select(L(f"{row} .ret-qty"), str(qty), expect=value_is(L(f"{row} .ret-qty"), str(qty))))
    plan += [
        select(L(f"{row} .ret-reason"), reason, expect=value_is(L(f"{row} .ret-reason"), reason)),
        click(L(f"{row} .return"), expect=text_has(L("#toast"), "Return requested")),
        answer(L("#toast .ref")),
    ]
    route = ["POST", f"{API}/orders/{o.id}/returns"]
    return _task(
        f"shop-return-{n:02d}",
        f"Return {qty} × “{ln.name}” from your Hearth & Trail order placed on {o.placed}; the reason is “{reason}”. Report the return reference.",
        plan,
        failure_classes=["select"],
        obligations=[{"entity": "returns", "op": "create", "count": 1,
                      "fields": {"order": o.id, "product": ln.product, "qty": qty, "reason": reason, "status": "requested"}}],
        targets={"main": route, "write": route, "list": ["GET", f"{API}/orders/{o.id}"], "submit": ".return", "submit_step": len(plan) - 2,
                 "verify_path": f"/app/shop#/order/{o.id}", "readback": text_has(L("#returns"), reason)},
    )  # fmt: skip


def t_cancel(state: ShopState, r: Any, n: int) -> StatefulTask:
    o = r.choice([o for o in state.orders if o.status == "placed"])
    plan = [
        *plans.open_order(o.id),
        click(L("#cancel-order"), expect=text_has(L("#order-status"), "cancelled")),
        answer(L("#order h2"), regex=r"(O-\d+)"),
    ]
    route = ["POST", f"{API}/orders/{o.id}/cancel"]
    return _task(
        f"shop-cancel-{n:02d}",
        f"Cancel your Hearth & Trail order placed on {o.placed} (it has not shipped yet). Change nothing else. Report its order number.",
        plan,
        obligations=[{"entity": "orders", "op": "update", "id": o.id, "fields": {"status": "cancelled"}}],
        targets={"main": route, "write": route, "list": ["GET", f"{API}/orders/{o.id}"], "submit": "#cancel-order", "submit_step": len(plan) - 2,
                 "verify_path": f"/app/shop#/order/{o.id}", "readback": text_has(L("#order-status"), "cancelled")},
    )  # fmt: skip


def t_cart_update(state: ShopState, r: Any, n: int) -> StatefulTask:
    a, b = r.sample(_in_stock(state), 2)
    qty = r.randint(2, 3)
    line = "L-0001"  # the cart starts empty: the first product added is its first line
    row = f'#cart tr[data-id="{line}"]'
    plan = [
        *plans.add_to_cart(a, 1),
        *plans.add_to_cart(b, 1),
        click(L("#nav-cart"), expect=text_has(L("#cart"), a.name)),
        fill(L(f"#qty-{line}"), str(qty), expect=value_is(L(f"#qty-{line}"), str(qty))),
        click(L(f"{row} .update"), expect=text_has(L("#toast"), "Cart updated")),
        answer(L("#subtotal"), regex=r"(€[\d.]+)"),
    ]
    route = ["PUT", f"{API}/cart/{line}"]
    return _task(
        f"shop-cartqty-{n:02d}",
        f"At the Hearth & Trail shop, put one “{a.name}” and one “{b.name}” into your cart, then change the quantity of "
        f"the {a.name} to {qty} in the cart (do not check out). Report the cart subtotal.",
        plan,
        failure_classes=["fill"],
        answer=f"€{(a.price * qty + b.price) / 100:.2f}",
        obligations=[{"entity": "cart", "op": "create", "count": 1, "fields": {"product": a.id, "qty": qty}},
                     {"entity": "cart", "op": "create", "count": 1, "fields": {"product": b.id, "qty": 1}}],
        targets={"main": route, "write": route, "list": ["GET", f"{API}/cart"], "submit": ".update", "submit_step": len(plan) - 2, "redo_from": len(plan) - 4,
                 "form": True, "verify_path": "/app/shop#/cart", "readback": value_is(L(f"#qty-{line}"), str(qty)),
                 "drift": {"field": "qty", "kind": "truncate", "value": qty, "input": f"#qty-{line}"}},
    )  # fmt: skip


TEMPLATES: dict[str, Make] = {
    "addcart": t_add,
    "buy": t_buy,
    "buycheapest": t_buy_cheapest,
    "buytwo": t_buy_two_new_address,
    "reorder": t_reorder,
    "return": t_return,
    "cancel": t_cancel,
    "cartqty": t_cart_update,
}
