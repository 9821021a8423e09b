"""What the ecommerce site's task templates share: picking instances in the seeded shop that a
person can name without ambiguity, and building a `StatefulTask` with its five-scale tier and
the targets the families aim at."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.ecommerce.content import shipping
from webfovea_breakingweb.apps.ecommerce.state import EcommerceState, Order, OrderLine, Product
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here

API = "/api/env/ecommerce"
PAGE = "/env/ecommerce"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."


KIT = kit.TaskKit("ecommerce", PAGE, SIGN_IN)
write_targets = KIT.write_targets
make = KIT.make


def delete(entity: str, rid: str) -> dict[str, Any]:
    return {"entity": entity, "op": "delete", "id": rid}


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def buyable(state: EcommerceState, *, options: bool | None = None) -> list[Product]:
    """Products in stock and not in the cart (adding one makes a new line), optionally only
    those with (True) or without (False) a size or colour to choose."""
    held = {x.product for x in state.cart}
    return [
        p for p in state.products
        if p.stock >= 3 and p.id not in held and (options is None or bool(p.sizes or p.colours) == options)
    ]  # fmt: skip


def pick_options(p: Product, r: random.Random) -> tuple[str, str]:
    return (r.choice(p.sizes) if p.sizes else "", r.choice(p.colours) if p.colours else "")


def described(p: Product, size: str, colour: str, qty: int) -> str:
    """“the Fenwick Rain Jacket in size M, colour Navy (2 of them)”."""
    parts = [f"size {size}" if size else "", f"colour {colour}" if colour else ""]
    opts = ", ".join(x for x in parts if x)
    return f"the “{p.name}”" + (f" in {opts}" if opts else "") + (f" ({qty} of them)" if qty > 1 else "")


def product_decoy(state: EcommerceState, r: random.Random, p: Product) -> dict[str, Any]:
    """The seed families' targets for a product: the record, and how a look-alike listing of it
    differs (another seller, a lower price: ranked above it in a search)."""
    other = r.choice(sorted({x.seller for x in state.products} - {p.seller}))
    return {"decoy_of": p.id, "decoy": {"seller": other, "price": max(100, p.price - 700)}}


def order_lines(state: EcommerceState, extra: list[tuple[Product, str, str, int]]) -> list[OrderLine]:
    """The lines an order placed now would hold: the cart's, then `extra` added to it."""
    found = {p.id: p for p in state.products}
    held = [
        OrderLine(product=x.product, name=found[x.product].name, size=x.size, colour=x.colour, qty=x.qty,
                  price=found[x.product].price)
        for x in state.cart
    ]  # fmt: skip
    added = [
        OrderLine(product=p.id, name=p.name, size=s, colour=c, qty=q, price=p.price) for p, s, c, q in extra
    ]
    return held + added


def order_ob(lines: list[OrderLine], aid: str, delivery: str, card: str) -> dict[str, Any]:
    subtotal = sum(x.price * x.qty for x in lines)
    ship = shipping(delivery, subtotal)
    return create("orders", status="processing", lines=[x.model_dump() for x in lines], address=aid, delivery=delivery,
                  payment=card, shipping=ship, total=subtotal + ship)  # fmt: skip


def cart_emptied(state: EcommerceState) -> list[dict[str, Any]]:
    return [delete("cart", x.id) for x in state.cart]


def delivered_lines(state: EcommerceState) -> list[tuple[Order, OrderLine]]:
    """Delivered order lines with no return yet, whose product appears once in that order."""
    done = {(x.order, x.product) for x in state.returns}
    return [
        (o, x)
        for o in state.orders
        if o.status == "delivered"
        for x in o.lines
        if (o.id, x.product) not in done
    ]
