"""The ecommerce site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): the cart, the
address book, cancelling an order, reading a message, adding products (from a category page, a
search with options, or a faceted and sorted list), returns and checking out the cart.

Each instance names its product by its unique name, its address by the person and street, its
order by number, so the truth is unambiguous; obligations name every change; anything else that
changes breaks an invariant. The readback holds only when the backend holds the change, on
`verify_path` after a fresh load."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.ecommerce import plans as p
from webfovea_breakingweb.apps.ecommerce.common import (
    API,
    buyable,
    cart_emptied,
    create,
    delete,
    delivered_lines,
    described,
    make,
    order_lines,
    order_ob,
    pick_options,
    product_decoy,
    update,
    write_targets,
)  # fmt: skip
from webfovea_breakingweb.apps.ecommerce.state import EcommerceState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, fill, select, text_has, value_is, visible

PER_TEMPLATE = 6
NEW_PEOPLE = (
    ("Ines Marr", "5 Orchard Row", "Kingsbury", "KB4 2LP", "United Kingdom"),
    ("Dev Sharma", "77 Canal Street", "Bridgeton", "BT9 3QS", "United Kingdom"),
    ("Lena Vogt", "Lindenweg 4", "Freiburg", "79098", "Germany"),
    ("Oskar Berg", "Storgatan 18", "Uppsala", "75320", "Sweden"),
    ("Maeve Quinn", "12 Strand Road", "Galway", "H91 X2Y7", "Ireland"),
    ("Hugo Lamb", "40 Mill Lane", "Ashworth", "AW1 7RE", "United Kingdom"),
)
NEW_STREETS = (
    "19 Willow Crescent",
    "2 Station Approach",
    "101 High Street",
    "6 Rosemary Close",
    "33 Bank Parade",
)


def _addr_row(aid: str) -> str:
    return p.address(aid)


def _address_decoy(state: EcommerceState, r: random.Random, aid: str) -> dict[str, object]:
    """A look-alike address: the same person at another street, listed just above."""
    street = r.choice([s for s in NEW_STREETS if all(a.street != s for a in state.addresses)])
    return {"decoy_of": aid, "decoy": {"street": street, "default": False}}


def reason_for(state: EcommerceState, pid: str, r: random.Random) -> str:
    """A reason a person would give for this product (a fit only for what has sizes)."""
    sized = any(q.id == pid and q.sizes for q in state.products)
    return r.choice([k for k in p.REASONS if sized or k not in ("too-small", "too-large")])


def t_cart_remove(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    x = r.choice(state.cart)
    name = next(q.name for q in state.products if q.id == x.product)
    done = p.gone("#cart-summary", p.line(x.id))
    plan = [p.nav("cart", p.line(x.id)), click(L(f"{p.line(x.id)} .remove"), expect=done)]
    return make("cart-remove", n, f"On Kestrel, remove the “{name}” from your cart.", plan, [delete("cart", x.id)],
                write_targets(f"{API}/cart/{x.id}/remove", plan, f"{p.line(x.id)} .remove", done, "/cart",
                              listing=f"{API}/cart"))  # fmt: skip


def t_delete_address(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice([x for x in state.addresses if not x.default])
    done = p.gone("#address-count", _addr_row(a.id))
    plan = [p.nav("addresses", _addr_row(a.id)), click(L(f"{_addr_row(a.id)} .delete"), expect=done)]
    return make("delete-address", n, f"On Kestrel, delete {a.name}'s address ({a.street}, {a.city}) from your address book.",
                plan, [delete("addresses", a.id)],
                {**write_targets(f"{API}/addresses/{a.id}/delete", plan, f"{_addr_row(a.id)} .delete", done, "/addresses",
                                 listing=f"{API}/addresses"), **_address_decoy(state, r, a.id)})  # fmt: skip


def t_default_address(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice([x for x in state.addresses if not x.default])
    old = next(x for x in state.addresses if x.default)
    done = visible(L(f"{_addr_row(a.id)} .default-badge"))
    plan = [p.nav("addresses", _addr_row(a.id)), click(L(f"{_addr_row(a.id)} .make-default"), expect=done)]
    return make("default-address", n, f"On Kestrel, make {a.name}'s address ({a.street}, {a.city}) your default address.",
                plan, [update("addresses", a.id, default=True), update("addresses", old.id, default=False)],
                {**write_targets(f"{API}/addresses/{a.id}/default", plan, f"{_addr_row(a.id)} .make-default", done,
                                 "/addresses", listing=f"{API}/addresses"), **_address_decoy(state, r, a.id)})  # fmt: skip


def t_cancel_order(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    o = r.choice([x for x in state.orders if x.status == "processing"])
    row = p.order_row(o.id)
    done = text_has(L(f"{row} .status"), "Cancelled")
    plan = [p.nav("orders", row), click(L(f"{row} .cancel"), expect=done)]
    first = o.lines[0].name + (f" and {len(o.lines) - 1} more" if len(o.lines) > 1 else "")
    return make("cancel-order", n, f"On Kestrel, cancel your order {o.id} ({first}).", plan,
                [update("orders", o.id, status="cancelled")],
                write_targets(f"{API}/orders/{o.id}/cancel", plan, f"{row} .cancel", done, "/orders", listing=f"{API}/orders"))  # fmt: skip


def t_read_message(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    m = r.choice([x for x in state.messages if not x.read])
    row = f'#messages tr[data-id="{m.id}"]'
    plan = [p.nav("messages", row), click(L(f"{row} .open"), expect=visible(L(f"{row}.read")))]
    return make("read-message", n, f"On Kestrel, open and read the message “{m.subject}” from {m.sender}.", plan,
                [update("messages", m.id, read=True)],
                write_targets(f"{API}/messages/{m.id}/read", plan, f"{row} .open", visible(L(f"{row}.read")), "/messages",
                              listing=f"{API}/messages"))  # fmt: skip


def t_cart_qty(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    x = r.choice(state.cart)
    name = next(q.name for q in state.products if q.id == x.product)
    qty = r.choice([q for q in (2, 3, 4, 5) if q != x.qty])
    box, total = f"#qty-{x.id}", sum(y.qty for y in state.cart) - x.qty + qty
    done = text_has(L("#cart-summary"), p.items(total))
    plan = [p.nav("cart", box), fill(L(box), str(qty), expect=value_is(L(box), str(qty))),
            click(L(f"{p.line(x.id)} .update"), expect=done)]  # fmt: skip
    targets = write_targets(f"{API}/cart/{x.id}", plan, f"{p.line(x.id)} .update", done, "/cart",
                            listing=f"{API}/cart", form=True)  # fmt: skip
    # save_drift: the first save keeps a digit less (3 -> 1); reading the cart again shows it.
    targets["drift"] = {"field": "qty", "kind": "truncate", "input": box, "value": qty}
    return make("cart-qty", n, f"On Kestrel, change the quantity of the “{name}” in your cart to {qty}.", plan,
                [update("cart", x.id, qty=qty)], targets)  # fmt: skip


def t_add_from_category(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    q = r.choice(buyable(state, options=False))
    cat = next(c for c in state.categories if c.slug == q.category)
    lid = next_id(state.cart, "CL-")
    plan = [
        click(L(f"#cat-{cat.slug}"), expect=visible(L(p.card(q.id)))),
        p.open_product(q.id),
        p.add_to_cart(lid),
    ]
    return make("add-from-category", n, f"On Kestrel, go to the {cat.name} department and add the “{q.name}” to your cart.",
                plan, [create("cart", product=q.id, size="", colour="", qty=1)],
                {**write_targets(f"{API}/cart", plan, "#add-to-cart", p.in_cart(lid), f"/p/{q.id}", listing=f"{API}/cart"),
                 **product_decoy(state, r, q)})  # fmt: skip


def t_edit_address(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice(state.addresses)
    street = r.choice([s for s in NEW_STREETS if s != a.street])
    row = _addr_row(a.id)
    plan = [p.nav("addresses", row), click(L(f"{row} .edit"), expect=visible(L("#addr-save"))),
            fill(L("#addr-street"), street, expect=value_is(L("#addr-street"), street)),
            click(L("#addr-save"), expect=text_has(L(f"{row} .street"), street))]  # fmt: skip
    return make("edit-address", n, f"On Kestrel, {a.name} moved within {a.city}: change the street of their address "
                f"({a.street}) to “{street}”.", plan, [update("addresses", a.id, street=street)],
                {**write_targets(f"{API}/addresses/{a.id}", plan, "#addr-save", text_has(L(f"{row} .street"), street),
                                 "/addresses", listing=f"{API}/addresses", form=True), **_address_decoy(state, r, a.id)})  # fmt: skip


def t_return_item(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    o, x = r.choice(delivered_lines(state))
    reason = reason_for(state, x.product, r)
    rid = next_id(state.returns, "RT-")
    plan = p.request_return(o.id, x.product, 1, reason, "drop-off", rid, asked=x.qty)
    return make("return-item", n, f"On Kestrel, return one “{x.name}” from order {o.id}; the reason is "
                f"“{p.REASONS[reason]}”, and you will drop it off at a parcel point.", plan,
                [create("returns", order=o.id, product=x.product, qty=1, reason=reason, method="drop-off", status="requested")],
                write_targets(f"{API}/returns", plan, "#return-submit", p.returned(x.product, rid), f"/orders/{o.id}",
                              listing=f"{API}/orders/{o.id}", form=True))  # fmt: skip


def t_add_options(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    q = r.choice(buyable(state, options=True))
    size, colour = pick_options(q, r)
    qty = r.choice((1, 2, 3))
    lid = next_id(state.cart, "CL-")
    plan = p.buy(q.name, q.id, size, colour, qty, lid)
    return make("add-options", n, f"On Kestrel, search for {described(q, size, colour, qty)} and add it to your cart.",
                plan, [create("cart", product=q.id, size=size, colour=colour, qty=qty)],
                write_targets(f"{API}/cart", plan, "#add-to-cart", p.in_cart(lid), f"/p/{q.id}", listing=f"{API}/cart",
                              form=True))  # fmt: skip


def t_facet_pick(state: EcommerceState, r: random.Random, n: int) -> StatefulTask | None:
    """The cheapest product of a brand rated 4 stars and up in a department: facets, then sort."""
    cat = r.choice(state.categories)
    held = {x.product for x in state.cart}
    fits = [q for q in state.products if q.category == cat.slug and q.rating >= 4]
    brand = r.choice(sorted({q.brand for q in fits}) or ["-"])
    ranked = sorted((q for q in fits if q.brand == brand), key=lambda q: (q.price, q.id))
    if not ranked or ranked[0].stock < 3 or ranked[0].id in held:
        return None
    q = ranked[0]
    size, colour = pick_options(q, r)
    lid = next_id(state.cart, "CL-")
    facet = f'#facets input.brand-facet[value="{brand}"]'
    plan = [
        click(L(f"#cat-{cat.slug}"), expect=visible(L(facet))),
        click(L(facet), expect={"target": L(facet), "checked": True}),
        select(L("#facet-rating"), "4 stars & up", expect=value_is(L("#facet-rating"), "4")),
        select(L("#sort"), "Price: low to high", expect=value_is(L("#sort"), "price-asc")),
        p.open_product(q.id), *p.options(size, colour, 1), p.add_to_cart(lid),
    ]  # fmt: skip
    opts = ", ".join(x for x in (f"size {size}" if size else "", f"colour {colour}" if colour else "") if x)
    return make("facet-pick", n, f"On Kestrel, in {cat.name}, find the cheapest {brand} product rated 4 stars or more "
                f"and add one to your cart" + (f" ({opts})." if opts else "."), plan,
                [create("cart", product=q.id, size=size, colour=colour, qty=1)],
                write_targets(f"{API}/cart", plan, "#add-to-cart", p.in_cart(lid), f"/p/{q.id}", listing=f"{API}/products"))  # fmt: skip


def t_add_address(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    name, street, city, postcode, country = r.choice(NEW_PEOPLE)
    aid = next_id(state.addresses, "AD-")
    plan = p.new_address(name, street, city, postcode, country, aid)
    return make("add-address", n, f"On Kestrel, add an address for {name}: {street}, {city} {postcode}, {country}.", plan,
                [create("addresses", name=name, street=street, city=city, postcode=postcode, country=country, default=False)],
                write_targets(f"{API}/addresses", plan, "#addr-save", visible(L(_addr_row(aid))), "/addresses", form=True))  # fmt: skip


def t_return_pickup(state: EcommerceState, r: random.Random, n: int) -> StatefulTask | None:
    fits = [(o, x) for o, x in delivered_lines(state) if x.qty > 1]
    if not fits:
        return None
    o, x = r.choice(fits)
    qty, reason = r.randint(2, x.qty), reason_for(state, x.product, r)
    rid = next_id(state.returns, "RT-")
    plan = p.request_return(o.id, x.product, qty, reason, "pickup", rid, asked=x.qty)
    return make("return-pickup", n, f"On Kestrel, return {qty} of the “{x.name}” from order {o.id} (reason "
                f"“{p.REASONS[reason]}”) and have a courier pick them up.", plan,
                [create("returns", order=o.id, product=x.product, qty=qty, reason=reason, method="pickup", status="requested")],
                write_targets(f"{API}/returns", plan, "#return-submit", p.returned(x.product, rid), f"/orders/{o.id}",
                              listing=f"{API}/orders/{o.id}", form=True))  # fmt: skip


def t_checkout_cart(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice(state.addresses)
    delivery = r.choice(list(p.DELIVERY))
    card = r.choice(state.cards)
    oid = next_id(state.orders, "O-")
    plan = p.checkout(a.id, p.address_label(a.name, a.street, a.city), delivery, card.id, card.label, oid)
    return make("checkout-cart", n, f"On Kestrel, buy everything in your cart: ship it to {a.name} ({a.street}, {a.city}) "
                f"with {p.DELIVERY[delivery]} delivery and pay with your {card.label}.", plan,
                [order_ob(order_lines(state, []), a.id, delivery, card.id), *cart_emptied(state)],
                write_targets(f"{API}/checkout", plan, "#place-order", visible(L(f'#order[data-id="{oid}"]')), f"/orders/{oid}",
                              listing=f"{API}/cart", form=True))  # fmt: skip


TEMPLATES = {
    "cart-remove": t_cart_remove, "delete-address": t_delete_address, "default-address": t_default_address,
    "cancel-order": t_cancel_order, "read-message": t_read_message,
    "cart-qty": t_cart_qty, "add-from-category": t_add_from_category, "edit-address": t_edit_address,
    "return-item": t_return_item,
    "add-options": t_add_options, "facet-pick": t_facet_pick, "add-address": t_add_address,
    "return-pickup": t_return_pickup, "checkout-cart": t_checkout_cart,
}  # fmt: skip
