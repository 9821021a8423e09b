"""The ecommerce site's long task templates, tiers T4 and T5: buying a product with its options
and checking out, a new address and an order sent there, two products in one order, and a return
with the replacement in another size. Their main write (the one the families aim at) is the
checkout, the last; a redo starts at the cart."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.ecommerce import plans as p
from webfovea_breakingweb.apps.ecommerce.common import (
    API,
    buyable,
    cart_emptied,
    create,
    delivered_lines,
    described,
    make,
    order_lines,
    order_ob,
    pick_options,
    write_targets,
)
from webfovea_breakingweb.apps.ecommerce.state import Card, EcommerceState
from webfovea_breakingweb.apps.ecommerce.tasks import NEW_PEOPLE
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, Step, visible


def _pay(state: EcommerceState, r: random.Random) -> tuple[str, Card]:
    return r.choice(list(p.DELIVERY)), r.choice(state.cards)


def _order_targets(plan: list[Step], start: int, oid: str) -> dict[str, object]:
    return write_targets(f"{API}/checkout", plan, "#place-order", visible(L(f'#order[data-id="{oid}"]')), f"/orders/{oid}",
                         listing=f"{API}/cart", redo_from=start, form=True)  # fmt: skip


def t_buy_checkout(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    q = r.choice(buyable(state, options=True))
    size, colour = pick_options(q, r)
    qty = r.choice((1, 1, 2))
    a = r.choice(state.addresses)
    delivery, card = _pay(state, r)
    lid, oid = next_id(state.cart, "CL-"), next_id(state.orders, "O-")
    plan = p.buy(q.name, q.id, size, colour, qty, lid)
    start = len(plan)
    plan += p.checkout(a.id, p.address_label(a.name, a.street, a.city), delivery, card.id, card.label, oid)
    lines = order_lines(state, [(q, size, colour, qty)])
    return make("buy-checkout", n, f"On Kestrel, add {described(q, size, colour, qty)} to your cart, then check out the "
                f"whole cart: ship to {a.name} ({a.street}, {a.city}), {p.DELIVERY[delivery]} delivery, paid with your {card.label}.",
                plan, [order_ob(lines, a.id, delivery, card.id), *cart_emptied(state)], _order_targets(plan, start, oid))  # fmt: skip


def t_new_address_checkout(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    name, street, city, postcode, country = r.choice(NEW_PEOPLE)
    aid, oid = next_id(state.addresses, "AD-"), next_id(state.orders, "O-")
    delivery, card = _pay(state, r)
    plan = p.new_address(name, street, city, postcode, country, aid)
    start = len(plan)
    plan += p.checkout(aid, p.address_label(name, street, city), delivery, card.id, card.label, oid)
    return make("new-address-checkout", n, f"On Kestrel, add an address for {name} ({street}, {city} {postcode}, {country}), "
                f"then send everything in your cart there with {p.DELIVERY[delivery]} delivery, paid with your {card.label}.",
                plan, [create("addresses", name=name, street=street, city=city, postcode=postcode, country=country, default=False),
                       order_ob(order_lines(state, []), aid, delivery, card.id), *cart_emptied(state)],
                _order_targets(plan, start, oid))  # fmt: skip


def t_two_items_checkout(state: EcommerceState, r: random.Random, n: int) -> StatefulTask:
    first, second = r.sample(buyable(state, options=True), 2)
    o1, o2 = pick_options(first, r), pick_options(second, r)
    a = r.choice(state.addresses)
    delivery, card = _pay(state, r)
    l1 = next_id(state.cart, "CL-")
    l2 = f"CL-{int(l1[3:]) + 1:04d}"
    oid = next_id(state.orders, "O-")
    plan = [*p.buy(first.name, first.id, *o1, 1, l1), *p.buy(second.name, second.id, *o2, 1, l2)]
    start = len(plan)
    plan += p.checkout(a.id, p.address_label(a.name, a.street, a.city), delivery, card.id, card.label, oid)
    lines = order_lines(state, [(first, *o1, 1), (second, *o2, 1)])
    return make("two-items-checkout", n, f"On Kestrel, add {described(first, *o1, 1)} and {described(second, *o2, 1)} to "
                f"your cart, then check out the whole cart to {a.name} ({a.street}, {a.city}) with {p.DELIVERY[delivery]} "
                f"delivery, paid with your {card.label}.", plan,
                [order_ob(lines, a.id, delivery, card.id), *cart_emptied(state)], _order_targets(plan, start, oid))  # fmt: skip


def t_exchange(state: EcommerceState, r: random.Random, n: int) -> StatefulTask | None:
    """Return a sized item that did not fit and order it again in the next size."""
    held = {x.product for x in state.cart}
    found = {q.id: q for q in state.products}
    fits = [(o, x) for o, x in delivered_lines(state)
            if found[x.product].sizes and x.size in found[x.product].sizes and found[x.product].stock >= 3 and x.product not in held]  # fmt: skip
    if not fits:
        return None
    o, x = r.choice(fits)
    q = found[x.product]
    at = q.sizes.index(x.size)
    bigger = at + 1 < len(q.sizes) and (at == 0 or r.random() < 0.5)
    size, reason = (q.sizes[at + 1], "too-small") if bigger else (q.sizes[at - 1], "too-large")
    colour = x.colour
    a = next(y for y in state.addresses if y.default)
    delivery, card = _pay(state, r)
    rid, lid, oid = next_id(state.returns, "RT-"), next_id(state.cart, "CL-"), next_id(state.orders, "O-")
    plan = p.request_return(o.id, x.product, 1, reason, "drop-off", rid, asked=x.qty)
    plan += p.buy(q.name, q.id, size, colour, 1, lid)
    start = len(plan)
    plan += p.checkout(a.id, p.address_label(a.name, a.street, a.city), delivery, card.id, card.label, oid)
    lines = order_lines(state, [(q, size, colour, 1)])
    return make("exchange", n, f"On Kestrel, the “{q.name}” (size {x.size}) from order {o.id} is "
                f"{p.REASONS[reason].lower()}: return one (drop-off at a parcel point), add it to your cart in size {size}"
                + (f", colour {colour}" if colour else "") + f", and check out the whole cart to your default address with "
                f"{p.DELIVERY[delivery]} delivery, paid with your {card.label}.", plan,
                [create("returns", order=o.id, product=x.product, qty=1, reason=reason, method="drop-off", status="requested"),
                 order_ob(lines, a.id, delivery, card.id), *cart_emptied(state)], _order_targets(plan, start, oid))  # fmt: skip


TEMPLATES = {
    "buy-checkout": t_buy_checkout, "new-address-checkout": t_new_address_checkout,
    "two-items-checkout": t_two_items_checkout, "exchange": t_exchange,
}  # fmt: skip
