"""The shop's JSON API (under /api/shop): search with facets and sort, product, cart, checkout,
orders, cancellation and returns. Every write goes through engine/store.py (save hooks, one
transaction, validation against ShopState); reads never change the state."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from webfovea_breakingweb.apps.shop.state import (
    DELIVERY,
    CartLine,
    Order,
    OrderLine,
    Return,
    ShopState,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.routes import AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

PAGE_SIZE = 20
SORTS = {
    "relevance": (lambda p: p.id, False),
    "price-asc": (lambda p: (p.price, p.id), False),
    "price-desc": (lambda p: (-p.price, p.id), False),
    "rating": (lambda p: (-p.rating, -p.reviews, p.id), False),
    "name": (lambda p: (p.name, p.id), False),
}


def search(state: ShopState, q: dict[str, str]) -> dict[str, Any]:
    """Products matching the query text, category, brand and stock filter, sorted and paged;
    the facet counts are over the text match (as shops show them)."""
    words = q.get("q", "").lower().split()
    hits = [p for p in state.products if all(w in f"{p.name} {p.category}".lower() for w in words)]
    facets = {
        "category": _counts(p.category for p in hits),
        "brand": _counts(p.brand for p in hits if not q.get("category") or p.category == q["category"]),
    }
    if q.get("category"):
        hits = [p for p in hits if p.category == q["category"]]
    if q.get("brand"):
        hits = [p for p in hits if p.brand == q["brand"]]
    if q.get("stock") == "1":
        hits = [p for p in hits if p.stock > 0]
    key, _ = SORTS.get(q.get("sort", "relevance"), SORTS["relevance"])
    hits.sort(key=key)  # type: ignore[arg-type]
    page = max(1, int(q["page"])) if q.get("page", "").isdigit() else 1
    shown = hits[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return {
        "total": len(hits),
        "page": page,
        "pages": max(1, -(-len(hits) // PAGE_SIZE)),
        "products": [p.model_dump() for p in shown],
        "facets": facets,
    }


def _counts(values: Any) -> list[list[Any]]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return [[k, out[k]] for k in sorted(out)]


def cart_view(state: ShopState) -> dict[str, Any]:
    by_id = {p.id: p for p in state.products}
    lines = [
        {**ln.model_dump(), "name": by_id[ln.product].name, "price": by_id[ln.product].price}
        for ln in state.cart
    ]
    return {"lines": lines, "subtotal": sum(ln["qty"] * ln["price"] for ln in lines)}


def _add(state: ShopState, product: str, qty: int) -> dict[str, Any]:
    p = st.find(state.products, product, "product")
    line = next((ln for ln in state.cart if ln.product == product), None)
    total = qty + (line.qty if line else 0)
    if total > p.stock:
        raise st.Rejected(f"Only {p.stock} of {p.name} in stock.")
    if line:
        line.qty = total
    else:
        state.cart.append(CartLine(id=st.next_id(state.cart, "L-"), product=product, qty=qty))
    return {"message": f"Added {qty} × {p.name} to your cart.", "cart": cart_view(state)}


def _checkout(state: ShopState, f: dict[str, Any]) -> dict[str, Any]:
    if not state.cart:
        raise st.Rejected("Your cart is empty.")
    delivery = str(f.get("delivery", ""))
    if delivery not in DELIVERY:
        raise st.Rejected("Choose a delivery option.")
    lines = []
    for ln in state.cart:
        p = st.find(state.products, ln.product, "product")
        if ln.qty > p.stock:
            raise st.Rejected(f"Only {p.stock} of {p.name} in stock.")
        p.stock -= ln.qty
        lines.append(OrderLine(product=p.id, name=p.name, qty=ln.qty, price=p.price))
    fee = DELIVERY[delivery][1]
    order = Order(
        id=st.next_id(state.orders, "O-"),
        placed=st.now(state)[:10],
        lines=lines,
        name=str(f.get("name", "")).strip(),
        street=str(f.get("street", "")).strip(),
        city=str(f.get("city", "")).strip(),
        postcode=str(f.get("postcode", "")).strip(),
        delivery=delivery,  # type: ignore[arg-type]
        shipping=fee,
        total=sum(x.qty * x.price for x in lines) + fee,
        status="placed",
    )
    state.orders.append(order)
    state.cart.clear()
    return {"message": "Order placed. Reference", "id": order.id}


def _return(state: ShopState, oid: str, f: dict[str, Any]) -> dict[str, Any]:
    order = st.find(state.orders, oid, "order")
    if order.status != "delivered":
        raise st.Rejected("Only delivered orders can be returned.")
    line = next((ln for ln in order.lines if ln.product == f.get("product")), None)
    if line is None:
        raise st.Rejected("That product is not in this order.")
    qty = int(f.get("qty") or 0)
    already = sum(r.qty for r in state.returns if r.order == oid and r.product == line.product)
    if qty < 1 or qty + already > line.qty:
        raise st.Rejected(f"You can return at most {line.qty - already} of {line.name}.")
    ret = Return(
        id=st.next_id(state.returns, "RT-"), order=oid, product=line.product, qty=qty, reason=f.get("reason")
    )  # type: ignore[arg-type]
    state.returns.append(ret)
    return {"message": "Return requested. Reference", "id": ret.id}


def _cancel(state: ShopState, oid: str) -> dict[str, Any]:
    order = st.find(state.orders, oid, "order")
    if order.status != "placed":
        raise st.Rejected(f"Order {oid} is already {order.status} and cannot be cancelled.")
    order.status = "cancelled"
    return {"message": f"Order {oid} cancelled.", "id": oid}


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)

    @r.read("/products")
    def products(c: Call) -> dict[str, Any]:
        return search(c.state, c.query)

    @r.read("/products/{pid}")
    def product(c: Call, pid: str) -> dict[str, Any]:
        p = st.find(c.state.products, pid, "product")
        in_cart = sum(ln.qty for ln in c.state.cart if ln.product == pid)
        return {"product": p.model_dump(), "in_cart": in_cart}

    @r.read("/cart")
    def cart(c: Call) -> dict[str, Any]:
        addresses = [a.model_dump() for a in c.state.addresses]
        options = [[k, label, fee] for k, (label, fee) in DELIVERY.items()]
        return {**cart_view(c.state), "addresses": addresses, "delivery": options}

    @r.write("/cart")
    def add(c: Call) -> dict[str, Any]:
        f = c.submitted()
        qty = f.get("qty")
        if not isinstance(qty, int) or qty < 1:
            raise st.Rejected("qty: enter a quantity of at least 1")
        return _add(c.state, str(f.get("product")), qty)

    @r.write("/cart/{lid}", method="PUT")
    def set_qty(c: Call, lid: str) -> dict[str, Any]:
        f = c.submitted(lid)
        line = st.find(c.state.cart, lid, "cart line")
        line.qty = int(f.get("qty") or 0)
        return {"message": "Cart updated.", "cart": cart_view(c.state)}

    @r.write("/cart/{lid}", method="DELETE", body=None)
    def remove(c: Call, lid: str) -> dict[str, Any]:
        c.state.cart.remove(st.find(c.state.cart, lid, "cart line"))
        return {"message": "Removed from your cart.", "cart": cart_view(c.state)}

    @r.write("/checkout")
    def checkout(c: Call) -> dict[str, Any]:
        return _checkout(c.state, c.submitted())

    @r.read("/orders")
    def orders(c: Call) -> dict[str, Any]:
        return {"orders": [o.model_dump() for o in reversed(c.state.orders)]}  # newest first

    @r.read("/orders/{oid}")
    def order(c: Call, oid: str) -> dict[str, Any]:
        o = st.find(c.state.orders, oid, "order")
        rets = [x.model_dump() for x in c.state.returns if x.order == oid]
        return {"order": o.model_dump(), "returns": rets}

    @r.write("/orders/{oid}/returns")
    def request_return(c: Call, oid: str) -> dict[str, Any]:
        return _return(c.state, oid, c.submitted(oid))

    @r.write("/orders/{oid}/cancel", body=None)
    def cancel(c: Call, oid: str) -> dict[str, Any]:
        return _cancel(c.state, oid)
