"""The ecommerce site's public API under /api/env/ecommerce (seed 003 A.1: the only surface the
page and the agent touch). Reads return the typed records as JSON; writes run in a transaction
(engine/routes.py), so a refusal leaves nothing half-written and the clock advances once.

A shop's rules, as a real one keeps them: a product with sizes or colours needs one of each
chosen, an out-of-stock product cannot be added, the same product with the same options adds to
its cart line; checkout turns the whole cart into one order (lines copied with their prices)
and empties the cart; only a processing order can be cancelled, only a delivered line returned,
once, up to the quantity bought; the default address cannot be deleted.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.ecommerce.content import shipping
from webfovea_breakingweb.apps.ecommerce.listing import facets, listing
from webfovea_breakingweb.apps.ecommerce.state import (
    Address,
    CartLine,
    Delivery,
    EcommerceState,
    Order,
    OrderLine,
    Return,
    ReturnMethod,
    ReturnReason,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

MAX_QTY = 10


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AddToCart(_Body):
    product: str
    size: str = ""
    colour: str = ""
    qty: int = Field(default=1, ge=1, le=MAX_QTY)


class Quantity(_Body):
    qty: int = Field(ge=1, le=MAX_QTY)


class AddressBody(_Body):
    name: str = Field(min_length=2, max_length=80)
    street: str = Field(min_length=3, max_length=120)
    city: str = Field(min_length=2, max_length=60)
    postcode: str = Field(min_length=3, max_length=12)
    country: str = Field(min_length=2, max_length=40)


class CheckoutBody(_Body):
    address: str
    delivery: Delivery
    payment: str


class ReturnBody(_Body):
    order: str
    product: str
    qty: int = Field(default=1, ge=1)
    reason: ReturnReason
    method: ReturnMethod = "drop-off"


def cart_view(state: EcommerceState) -> dict[str, Any]:
    """The cart's lines with their product, the item count and the subtotal (cents)."""
    lines = []
    for line in state.cart:
        p = st.find(state.products, line.product, "product")
        lines.append({**line.model_dump(), "name": p.name, "price": p.price, "stock": p.stock})
    return {
        "lines": lines,
        "items": sum(x.qty for x in state.cart),
        "subtotal": sum(x["price"] * x["qty"] for x in lines),
    }


def _option(value: str, offered: list[str], what: str) -> str:
    if offered and value not in offered:
        raise st.Rejected(
            f"Choose a {what}: one of {', '.join(offered)}." if not value else f"No {what} {value!r}."
        )
    if not offered and value:
        raise st.Rejected(f"This product has no {what} to choose.")
    return value


def _order_line(state: EcommerceState, oid: str, pid: str) -> tuple[Order, OrderLine]:
    order = st.find(state.orders, oid, "order")
    for x in order.lines:
        if x.product == pid:
            return order, x
    raise LookupError(f"Order {oid} has no product {pid}.")


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/catalogue")
    def catalogue(c: Call) -> dict[str, Any]:
        s: EcommerceState = c.state
        return {"categories": [x.model_dump() for x in s.categories], "me": s.me, "cart_items": sum(x.qty for x in s.cart),
                "unread": sum(1 for m in s.messages if not m.read)}  # fmt: skip

    @r.read("/products")
    def products(c: Call) -> dict[str, Any]:
        got = listing(c.state, c.query)
        return {
            "products": [p.model_dump() for p in got],
            "total": len(got),
            "facets": facets(c.state, c.query),
        }

    @r.read("/products/{pid}")
    def product(c: Call, pid: str) -> dict[str, Any]:
        return {"product": st.find(c.state.products, pid, "product").model_dump()}

    @r.read("/cart")
    def cart(c: Call) -> dict[str, Any]:
        return cart_view(c.state)

    @r.write("/cart", body=AddToCart)
    def add(c: Call) -> dict[str, Any]:
        s: EcommerceState = c.state
        p = st.find(s.products, c.body.product, "product")
        if p.stock == 0:
            raise st.Rejected(f"{p.name} is out of stock.")
        fields = c.submitted(None, c.body.model_dump())
        size, colour = (
            _option(fields["size"], p.sizes, "size"),
            _option(fields["colour"], p.colours, "colour"),
        )
        held = next((x for x in s.cart if (x.product, x.size, x.colour) == (p.id, size, colour)), None)
        if held is not None:
            held.qty = min(MAX_QTY, held.qty + fields["qty"])
            return {"message": f"{p.name}: {held.qty} in your cart. Line", "id": held.id}
        line = CartLine(
            id=st.next_id(s.cart, "CL-"), product=p.id, size=size, colour=colour, qty=fields["qty"]
        )
        s.cart.append(line)
        return {"message": f"Added {p.name} to your cart. Line", "id": line.id}

    @r.write("/cart/{lid}", body=Quantity)
    def set_qty(c: Call, lid: str) -> dict[str, Any]:
        line = st.find(c.state.cart, lid, "cart line")
        line.qty = c.submitted(lid, c.body.model_dump())["qty"]
        return {"message": f"Quantity updated to {line.qty}."}

    @r.write("/cart/{lid}/remove", body=LENIENT)
    def remove(c: Call, lid: str) -> dict[str, Any]:
        line = st.find(c.state.cart, lid, "cart line")
        c.state.cart.remove(line)
        return {
            "message": f"{st.find(c.state.products, line.product, 'product').name} was removed from your cart."
        }

    @r.read("/addresses")
    def addresses(c: Call) -> dict[str, Any]:
        return {"addresses": [a.model_dump() for a in c.state.addresses]}

    @r.write("/addresses", body=AddressBody)
    def add_address(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        a = Address(id=st.next_id(c.state.addresses, "AD-"), **fields)
        c.state.addresses.append(a)
        return {"message": f"Address for {a.name} saved. Reference", "id": a.id}

    @r.write("/addresses/{aid}", body=AddressBody)
    def edit_address(c: Call, aid: str) -> dict[str, Any]:
        a = st.find(c.state.addresses, aid, "address")
        for k, v in c.submitted(aid, c.body.model_dump()).items():
            setattr(a, k, v)
        return {"message": f"Address for {a.name} updated."}

    @r.write("/addresses/{aid}/default", body=LENIENT)
    def make_default(c: Call, aid: str) -> dict[str, Any]:
        chosen = st.find(c.state.addresses, aid, "address")
        for a in c.state.addresses:
            a.default = a is chosen
        return {"message": f"{chosen.name}'s address is now your default."}

    @r.write("/addresses/{aid}/delete", body=LENIENT)
    def delete_address(c: Call, aid: str) -> dict[str, Any]:
        a = st.find(c.state.addresses, aid, "address")
        if a.default:
            raise st.Rejected("Your default address cannot be deleted: choose another default first.")
        c.state.addresses.remove(a)
        return {"message": f"Address for {a.name} deleted."}

    @r.read("/cards")
    def cards(c: Call) -> dict[str, Any]:
        return {"cards": [x.model_dump() for x in c.state.cards]}

    @r.write("/checkout", body=CheckoutBody)
    def checkout(c: Call) -> dict[str, Any]:
        s: EcommerceState = c.state
        if not s.cart:
            raise st.Rejected("Your cart is empty.")
        fields = c.submitted(None, c.body.model_dump())
        address = st.find(s.addresses, fields["address"], "address")
        card = st.find(s.cards, fields["payment"], "card")
        lines = []
        for x in s.cart:
            p = st.find(s.products, x.product, "product")
            if p.stock < x.qty:
                raise st.Rejected(f"Only {p.stock} of {p.name} left: change the quantity in your cart.")
            lines.append(
                OrderLine(product=p.id, name=p.name, size=x.size, colour=x.colour, qty=x.qty, price=p.price)
            )
        subtotal = sum(x.price * x.qty for x in lines)
        ship = shipping(fields["delivery"], subtotal)
        order = Order(id=st.next_id(s.orders, "O-"), placed=st.now(s), status="processing", lines=lines,
                      address=address.id, delivery=fields["delivery"], payment=card.id, shipping=ship, total=subtotal + ship)  # fmt: skip
        s.orders.append(order)
        s.cart.clear()
        return {"message": "Order placed. Order number", "id": order.id}

    @r.read("/orders")
    def orders(c: Call) -> dict[str, Any]:
        return {"orders": [o.model_dump() for o in reversed(c.state.orders)]}  # newest first

    @r.read("/orders/{oid}")
    def order(c: Call, oid: str) -> dict[str, Any]:
        s: EcommerceState = c.state
        o = st.find(s.orders, oid, "order")
        returned = {x.product: x.id for x in s.returns if x.order == oid}
        return {"order": o.model_dump(), "address": st.find(s.addresses, o.address, "address").model_dump()
                if any(a.id == o.address for a in s.addresses) else None,
                "card": st.find(s.cards, o.payment, "card").model_dump(), "returned": returned}  # fmt: skip

    @r.write("/orders/{oid}/cancel", body=LENIENT)
    def cancel(c: Call, oid: str) -> dict[str, Any]:
        o = st.find(c.state.orders, oid, "order")
        if o.status != "processing":
            raise st.Rejected(f"Order {oid} is {o.status}: only an order still processing can be cancelled.")
        o.status = "cancelled"
        return {"message": f"Order {oid} was cancelled."}

    @r.read("/returns")
    def returns(c: Call) -> dict[str, Any]:
        return {"returns": [x.model_dump() for x in reversed(c.state.returns)]}

    @r.write("/returns", body=ReturnBody)
    def request_return(c: Call) -> dict[str, Any]:
        s: EcommerceState = c.state
        fields = c.submitted(None, c.body.model_dump())
        o, line = _order_line(s, fields["order"], fields["product"])
        if o.status != "delivered":
            raise st.Rejected(f"Order {o.id} is {o.status}: only a delivered item can be returned.")
        if any(x.order == o.id and x.product == line.product for x in s.returns):
            raise st.Rejected(f"A return for {line.name} on order {o.id} was already requested.", 409)
        if fields["qty"] > line.qty:
            raise st.Rejected(f"You bought {line.qty} of {line.name}: return at most that many.")
        ret = Return(id=st.next_id(s.returns, "RT-"), created=st.now(s), **fields)
        s.returns.append(ret)
        return {"message": "Return requested. Return number", "id": ret.id}

    @r.read("/messages")
    def messages(c: Call) -> dict[str, Any]:
        got = sorted(c.state.messages, key=lambda m: (m.created, m.id), reverse=True)
        return {"messages": [m.model_dump() for m in got], "unread": sum(1 for m in got if not m.read)}

    @r.write("/messages/{mid}/read", body=LENIENT)
    def read_message(c: Call, mid: str) -> dict[str, Any]:
        st.find(c.state.messages, mid, "message").read = True
        return {}
