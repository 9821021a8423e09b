"""Plan fragments for the ecommerce site's tasks: the steps a careful shopper takes in its pages.
Every step waits for what the page shows after it (the re-read view), never for a timer."""

from __future__ import annotations

from typing import Any

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible

REASONS = {
    "too-small": "Too small",
    "too-large": "Too large",
    "damaged": "Arrived damaged",
    "not-as-described": "Not as described",
    "changed-mind": "No longer needed",
}
METHODS = {"drop-off": "Drop-off at a parcel point", "pickup": "Courier pickup"}
DELIVERY = {"standard": "Standard", "express": "Express", "next-day": "Next day"}


def card(pid: str) -> str:
    return f'#results > article.product[data-id="{pid}"]'


def line(lid: str) -> str:
    return f'#cart tr.line[data-id="{lid}"]'


def order_row(oid: str) -> str:
    return f'#orders tr.order[data-id="{oid}"]'


def address(aid: str) -> str:
    return f'#addresses .address[data-id="{aid}"]'


def address_label(name: str, street: str, city: str) -> str:
    """How the checkout's address list names an address (react/envs/ecommerce/Checkout.jsx)."""
    return f"{name}, {street}, {city}"


def items(n: int) -> str:
    return f"({n} {'item' if n == 1 else 'items'})"


def gone(shown: str, row: str) -> dict[str, Any]:
    """The view re-read (`shown` is drawn once its data came) and `row` no longer in it."""
    return {"all": [visible(L(shown)), {"target": L(row), "visible": False}]}


def in_cart(lid: str) -> dict[str, Any]:
    """The product page's re-read of the cart holds line `lid` (a readback on that page)."""
    return visible(L(f'#in-cart li[data-id="{lid}"]'))


def returned(pid: str, rid: str) -> dict[str, Any]:
    """The order's page shows return `rid` on the product's line."""
    return text_has(L(f'li.oline[data-product="{pid}"] .rid'), rid)


def nav(name: str, shows: str) -> Step:
    return click(L(f"#nav-{name}"), expect=visible(L(shows)))


def search(query: str, pid: str) -> list[Step]:
    return [
        fill(L("#search-q"), query, expect=value_is(L("#search-q"), query)),
        click(L("#search-go"), expect=visible(L(card(pid)))),
    ]


def open_product(pid: str) -> Step:
    return click(L(f"{card(pid)} a.title"), expect=visible(L(f'#product[data-id="{pid}"]')))


def options(size: str, colour: str, qty: int) -> list[Step]:
    out = []
    if size:
        out.append(select(L("#size"), size, expect=value_is(L("#size"), size)))
    if colour:
        out.append(select(L("#colour"), colour, expect=value_is(L("#colour"), colour)))
    if qty != 1:
        out.append(select(L("#qty"), str(qty), expect=value_is(L("#qty"), str(qty))))
    return out


def add_to_cart(new_line: str) -> Step:
    return click(L("#add-to-cart"), expect=text_has(L("#toast .ref"), new_line))


def buy(query: str, pid: str, size: str, colour: str, qty: int, new_line: str) -> list[Step]:
    """Search a product, open it, choose its options and add it to the cart."""
    return [*search(query, pid), open_product(pid), *options(size, colour, qty), add_to_cart(new_line)]


def checkout(
    aid: str, label: str, delivery: str, card_id: str, card_label: str, new_order: str
) -> list[Step]:
    return [
        nav("cart", "#to-checkout"),
        click(L("#to-checkout"), expect=visible(L("#place-order"))),
        select(L("#ship-to"), label, expect=value_is(L("#ship-to"), aid)),
        click(L(f"#delivery-{delivery}"), expect={"target": L(f"#delivery-{delivery}"), "checked": True}),
        select(L("#payment"), card_label, expect=value_is(L("#payment"), card_id)),
        click(L("#place-order"), expect=text_has(L("#toast .ref"), new_order)),
    ]


def new_address(name: str, street: str, city: str, postcode: str, country: str, new_id: str) -> list[Step]:
    return [
        nav("addresses", "#add-address"),
        click(L("#add-address"), expect=visible(L("#addr-save"))),
        fill(L("#addr-name"), name, expect=value_is(L("#addr-name"), name)),
        fill(L("#addr-street"), street, expect=value_is(L("#addr-street"), street)),
        fill(L("#addr-city"), city, expect=value_is(L("#addr-city"), city)),
        fill(L("#addr-postcode"), postcode, expect=value_is(L("#addr-postcode"), postcode)),
        select(L("#addr-country"), country, expect=value_is(L("#addr-country"), country)),
        click(L("#addr-save"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def open_order(oid: str) -> list[Step]:
    return [
        nav("orders", order_row(oid)),
        click(L(f"{order_row(oid)} a.open"), expect=visible(L(f'#order[data-id="{oid}"]'))),
    ]


def request_return(
    oid: str, pid: str, qty: int, reason: str, method: str, new_id: str, *, asked: int
) -> list[Step]:
    """From the order's page: Return on the line, then the form (`asked`: the line's quantity,
    so the quantity is chosen only when there is a choice and the task names one)."""
    steps = [
        *open_order(oid),
        click(L(f'li.oline[data-product="{pid}"] .return'), expect=visible(L("#return-submit"))),
    ]
    if asked > 1 and qty != 1:
        steps.append(select(L("#return-qty"), str(qty), expect=value_is(L("#return-qty"), str(qty))))
    steps.append(select(L("#return-reason"), REASONS[reason], expect=value_is(L("#return-reason"), reason)))
    if method != "drop-off":
        steps.append(
            select(L("#return-method"), METHODS[method], expect=value_is(L("#return-method"), method))
        )
    steps.append(click(L("#return-submit"), expect=text_has(L("#toast .ref"), new_id)))
    return steps
