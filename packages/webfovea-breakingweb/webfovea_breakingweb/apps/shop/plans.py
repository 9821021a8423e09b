"""Plan fragments for the shop's tasks: the steps a careful person takes in its UI."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.shop.page import SORTS
from webfovea_breakingweb.apps.shop.state import Product
from webfovea_proving_ground.plan import L, click, fill, select, text_has, value_is, visible

Step = dict[str, Any]
SORT_LABEL = dict(SORTS)


def search(
    q: str = "", category: str = "", brand: str = "", sort: str = "", stock: bool = False
) -> list[Step]:
    """Open the search, set the query and facets, press Search (the last step calls the API)."""
    steps = [click(L("#nav-search"), expect=visible(L("#search-go")))]
    if q:
        steps.append(fill(L("#q"), q, expect=value_is(L("#q"), q)))
    if category:
        steps.append(select(L("#f-category"), category, expect=value_is(L("#f-category"), category)))
    if brand:
        steps.append(select(L("#f-brand"), brand, expect=value_is(L("#f-brand"), brand)))
    if sort:
        steps.append(select(L("#sort"), SORT_LABEL[sort], expect=value_is(L("#sort"), sort)))
    if stock:
        steps.append(click(L("#f-stock"), expect={"target": L("#f-stock"), "checked": True}))
    shown = f"Brand: {brand}" if brand else f"Category: {category}" if category else f"for “{q}”"
    steps.append(click(L("#search-go"), expect=text_has(L("#result-info"), shown)))
    return steps


def open_product(p: Product) -> Step:
    return click(L(f'#results tr[data-id="{p.id}"] a.name'), expect=text_has(L("#p-name"), p.name))


def add_to_cart(p: Product, qty: int, before: int = 0) -> list[Step]:
    """Find the product by its name, open it, set the quantity, add it."""
    steps = [*search(q=p.name), open_product(p)]
    if qty != 1:
        steps.append(fill(L("#qty"), str(qty), expect=value_is(L("#qty"), str(qty))))
    steps.append(click(L("#add-to-cart"), expect=text_has(L("#in-cart"), f"In your cart: {before + qty}")))
    return steps


def checkout(
    address: tuple[str, str] | None, new: dict[str, str] | None, delivery: str, order_id: str
) -> list[Step]:
    """Cart → checkout → address (a saved one: (option text, id), or typed) → delivery → Place order."""
    steps = [
        click(L("#nav-cart"), expect=visible(L("#to-checkout"))),
        click(L("#to-checkout"), expect=visible(L("#place-order"))),
    ]
    if address:
        label, aid = address  # the option's text, its value
        steps.append(select(L("#address"), label, expect=value_is(L("#address"), aid)))
    for key, value in (new or {}).items():
        steps.append(fill(L(f"#{key}"), value, expect=value_is(L(f"#{key}"), value)))
    steps.append(
        click(L(f"#delivery-{delivery}"), expect={"target": L(f"#delivery-{delivery}"), "checked": True})
    )
    steps.append(click(L("#place-order"), expect=text_has(L("#toast"), order_id)))
    return steps


def open_order(oid: str) -> list[Step]:
    return [
        click(L("#nav-orders"), expect=visible(L("#orders"))),
        click(L(f'#orders tr[data-id="{oid}"] a.view'), expect=text_has(L("#order"), f"Order {oid}")),
    ]
