"""Plan fragments for the bank's tasks: the steps a careful person takes in its UI."""

from __future__ import annotations

from typing import Any

from webfovea_proving_ground.plan import L, click, fill, select, text_has, value_is, visible

Step = dict[str, Any]


def euros(cents: int) -> str:
    return f"{cents / 100:.2f}"


def shown(cents: int) -> str:
    """An amount as the page shows it (money out with a minus sign)."""
    return ("−" if cents < 0 else "") + f"€{abs(cents) / 100:.2f}"


def statement(
    frm: str = "", to: str = "", q: str = "", category: str = "", sort: str = "", sort_label: str = ""
) -> list[Step]:
    steps = [click(L("#nav-statement"), expect=visible(L("#st-show")))]
    for sel, value in (("#st-from", frm), ("#st-to", to), ("#st-q", q)):
        if value:
            steps.append(fill(L(sel), value, expect=value_is(L(sel), value)))
    if category:
        steps.append(select(L("#st-category"), category, expect=value_is(L("#st-category"), category)))
    if sort:
        steps.append(select(L("#st-sort"), sort_label, expect=value_is(L("#st-sort"), sort)))
    span = f"{frm or 'the start'} to {to or 'today'}"
    steps.append(click(L("#st-show"), expect=text_has(L("#st-summary"), f"transactions from {span}")))
    return steps


def add_payee(name: str, iban: str) -> list[Step]:
    return [
        click(L("#nav-payees"), expect=visible(L("#py-add"))),
        fill(L("#py-name"), name, expect=value_is(L("#py-name"), name)),
        fill(L("#py-iban"), iban, expect=value_is(L("#py-iban"), iban)),
        click(L("#py-add"), expect=text_has(L("#payees"), iban)),
    ]


def transfer(payee: str, payee_id: str, cents: int, reference: str, transfer_id: str) -> list[Step]:
    amount = euros(cents)
    return [
        click(L("#nav-transfer"), expect=visible(L("#tr-review"))),
        select(L("#tr-from"), "Everyday account", expect=value_is(L("#tr-from"), "ACC-1")),
        select(L("#tr-payee"), payee, expect=value_is(L("#tr-payee"), payee_id)),
        fill(L("#tr-amount"), amount, expect=value_is(L("#tr-amount"), amount)),
        fill(L("#tr-reference"), reference, expect=value_is(L("#tr-reference"), reference)),
        click(L("#tr-review"), expect=visible(L("#tr-confirm"))),
        click(L("#tr-confirm"), expect=text_has(L("#toast"), transfer_id)),
    ]


def standing(
    payee: str, payee_id: str, cents: int, frequency: str, start: str, reference: str, so_id: str
) -> list[Step]:
    amount = euros(cents)
    return [
        click(L("#nav-standing"), expect=visible(L("#so-save"))),
        select(L("#so-payee"), payee, expect=value_is(L("#so-payee"), payee_id)),
        fill(L("#so-amount"), amount, expect=value_is(L("#so-amount"), amount)),
        select(L("#so-frequency"), frequency.capitalize(), expect=value_is(L("#so-frequency"), frequency)),
        fill(L("#so-start"), start, expect=value_is(L("#so-start"), start)),
        fill(L("#so-reference"), reference, expect=value_is(L("#so-reference"), reference)),
        click(L("#so-save"), expect=text_has(L("#toast"), so_id)),
    ]
