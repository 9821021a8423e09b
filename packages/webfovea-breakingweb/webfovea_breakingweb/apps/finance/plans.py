"""Plan fragments for the finance site's tasks: the steps a careful person takes in its pages
(search a stock, fill the order ticket, review, submit; move money; open a document)."""

from __future__ import annotations

from webfovea_breakingweb.apps.finance.market import dollars
from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def stock_page(sym: str) -> dict:
    return visible(L(f'#stock[data-symbol="{sym}"]'))


def search(sym: str) -> list[Step]:
    """Find the stock by its symbol in the header's search and open its page (3 actions)."""
    hit = f'#results li[data-symbol="{sym}"] a.sym'
    return [
        fill(L("#search-q"), sym, expect=value_is(L("#search-q"), sym)),
        click(L("#search-go"), expect=visible(L(hit))),
        click(L(hit), expect=stock_page(sym)),
    ]


def from_positions(sym: str) -> Step:
    return click(L(f'#positions tr[data-symbol="{sym}"] a.sym'), expect=stock_page(sym))


def from_home_list(wid: str, sym: str) -> Step:
    return click(
        L(f'#home-lists section.wl[data-id="{wid}"] li[data-symbol="{sym}"] a.sym'), expect=stock_page(sym)
    )


def ticket(
    side: str, shares: int, oid: str, *, limit: int | None = None, tif: str = "gfd"
) -> list[Step]:  # fmt: skip
    """The order ticket on a stock's page: side, type, shares, limit and time in force, Review,
    then Submit (3 actions for a market buy; +1 for a sell, +2 or +3 for a limit)."""
    steps: list[Step] = []
    if side == "sell":
        steps.append(click(L("#side-sell"), expect=visible(L('#side-sell[aria-pressed="true"]'))))
    if limit is not None:
        steps.append(select(L("#order-type"), "Limit order", expect=value_is(L("#order-type"), "limit")))
    steps.append(fill(L("#order-shares"), str(shares), expect=value_is(L("#order-shares"), str(shares))))
    if limit is not None:
        steps.append(
            fill(L("#order-limit"), dollars(limit), expect=value_is(L("#order-limit"), dollars(limit)))
        )
        if tif == "gtc":
            steps.append(
                select(L("#order-tif"), "Good till cancelled", expect=value_is(L("#order-tif"), "gtc"))
            )
    steps += [
        click(L("#order-review"), expect=visible(L("#order-submit"))),
        click(L("#order-submit"), expect=text_has(L("#toast .ref"), oid)),
    ]
    return steps


def cancel_order(oid: str) -> list[Step]:
    row = f'#orders tr[data-id="{oid}"]'
    return [
        click(L("#nav-orders"), expect=visible(L(row))),
        click(L(f"{row} .cancel"), expect=visible(L(f"{row} .confirm-cancel"))),
        click(L(f"{row} .confirm-cancel"), expect=text_has(L(f"{row} td.status"), "cancelled")),
    ]


def transfer(direction: str, amount: int, tid: str) -> list[Step]:
    """Move money between the linked bank and buying power (5 actions)."""
    label = "Deposit from your bank" if direction == "deposit" else "Withdraw to your bank"
    return [
        click(L("#nav-transfers"), expect=visible(L("#tr-amount"))),
        select(L("#tr-direction"), label, expect=value_is(L("#tr-direction"), direction)),
        fill(L("#tr-amount"), dollars(amount), expect=value_is(L("#tr-amount"), dollars(amount))),
        click(L("#tr-review"), expect=visible(L("#tr-confirm"))),
        click(L("#tr-confirm"), expect=text_has(L("#toast .ref"), tid)),
    ]


def add_to_list(wid: str, name: str, sym: str) -> list[Step]:
    """On a stock's page: choose the list, add (2 actions)."""
    return [
        select(L("#wl-choose"), name, expect=value_is(L("#wl-choose"), wid)),
        click(L("#wl-add"), expect=text_has(L("#on-lists"), name)),
    ]


def new_list(name: str, wid: str) -> list[Step]:
    return [
        click(L("#nav-lists"), expect=visible(L("#wl-name"))),
        fill(L("#wl-name"), name, expect=value_is(L("#wl-name"), name)),
        click(L("#wl-create"), expect=text_has(L("#toast .ref"), wid)),
    ]


def open_statement(did: str) -> list[Step]:
    row = f'#documents tr[data-id="{did}"]'
    return [
        click(L("#nav-documents"), expect=visible(L(row))),
        click(L(f"{row} .open"), expect=visible(L(f"{row}.viewed"))),
    ]
