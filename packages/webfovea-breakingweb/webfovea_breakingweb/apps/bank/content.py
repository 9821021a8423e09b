"""The bank's seeded content: two accounts, 12 payees, 4 standing orders and a year (2024) of
about 360 transactions, their balances consistent with the accounts, drawn from the rng given."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.bank.state import (
    Account,
    BankState,
    Payee,
    StandingOrder,
    Transaction,
)

PAYEES = (
    "Lindqvist Property", "Nordic Power", "City Water", "Ada Berg", "Ola Nord", "Kari Vik",
    "FitLife Gym", "Harbour Insurance", "Per Lunde", "Siri Dahl", "Green Cab Co", "Book Nook",
)  # fmt: skip
CATEGORIES = {  # category -> (counterparties, cents range, sign)
    "Groceries": (("FreshMart", "Corner Grocer", "Bio Market"), (800, 14000), -1),
    "Restaurants": (("Trattoria Roma", "Noodle Bar", "Cafe Lumen"), (900, 9500), -1),
    "Transport": (("Metro Transit", "Green Cab Co", "Fuel Stop"), (250, 8000), -1),
    "Shopping": (("Hearth & Trail", "Book Nook", "Urban Outfit"), (1500, 22000), -1),
    "Utilities": (("Nordic Power", "City Water"), (3000, 15000), -1),
    "Friends": (("Ada Berg", "Ola Nord", "Kari Vik", "Per Lunde", "Siri Dahl"), (1000, 12000), -1),
}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")  # fmt: skip
DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # 2024


def iban(r: random.Random) -> str:
    return f"NL{r.randint(10, 99)}BANK{r.randint(0, 9_999_999_999):010d}"


def _transactions(r: random.Random) -> list[Transaction]:
    rows: list[
        tuple[str, str, str, str, str, int]
    ] = []  # date, account, counterparty, description, category, amount
    for m in range(1, 13):
        rows.append(
            (
                f"2024-{m:02d}-25",
                "ACC-1",
                "Northwind Ltd",
                "Salary",
                "Salary",
                385000 + r.randint(0, 40) * 100,
            )
        )
        rows.append((f"2024-{m:02d}-01", "ACC-1", "Lindqvist Property", "Rent", "Rent", -125000))
        rows.append((f"2024-{m:02d}-02", "ACC-2", "Everyday account", "Savings", "Savings", 30000))
        for _ in range(25):
            cat = r.choice(list(CATEGORIES))
            who, (lo, hi), sign = CATEGORIES[cat]
            cp = r.choice(who)
            rows.append(
                (
                    f"2024-{m:02d}-{r.randint(1, DAYS_IN[m - 1]):02d}",
                    "ACC-1",
                    cp,
                    f"{cat}: {cp}",
                    cat,
                    sign * r.randint(lo, hi),
                )
            )
    rows.sort(key=lambda t: (t[0], t[1], t[2], t[5]))
    return [
        Transaction(
            id=f"T-{i:04d}", account=a, date=d, counterparty=c, description=desc, category=cat, amount=amt
        )
        for i, (d, a, c, desc, cat, amt) in enumerate(rows, 1)
    ]


def build(r: random.Random, seed: int) -> BankState:
    txns = _transactions(r)
    opening = {"ACC-1": 250000, "ACC-2": 1200000}
    accounts = [
        Account(
            id=aid,
            name=name,
            iban=iban(r),
            balance=opening[aid] + sum(t.amount for t in txns if t.account == aid),
        )
        for aid, name in (("ACC-1", "Everyday account"), ("ACC-2", "Savings account"))
    ]
    payees = [Payee(id=f"PY-{i:04d}", name=n, iban=iban(r)) for i, n in enumerate(PAYEES, 1)]
    by = {p.name: p.id for p in payees}
    standing = [
        StandingOrder(id="SO-0001", account="ACC-1", payee=by["Lindqvist Property"], amount=125000,
                      frequency="monthly", start="2024-01-01", reference="Rent flat 3B"),
        StandingOrder(id="SO-0002", account="ACC-1", payee=by["FitLife Gym"], amount=3900,
                      frequency="monthly", start="2024-03-05", reference=f"Member {r.randint(1000, 9999)}"),
        StandingOrder(id="SO-0003", account="ACC-1", payee=by["Harbour Insurance"], amount=r.randint(20, 60) * 100,
                      frequency="monthly", start="2024-02-15", reference=f"Policy {r.randint(100000, 999999)}"),
        StandingOrder(id="SO-0004", account="ACC-1", payee=by["Siri Dahl"], amount=r.randint(10, 30) * 100,
                      frequency="weekly", start="2024-06-07", reference="Pocket money"),
    ]  # fmt: skip
    return BankState(accounts=accounts, payees=payees, transactions=txns, standing=standing)
