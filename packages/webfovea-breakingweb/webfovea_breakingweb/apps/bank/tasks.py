"""The bank's task generator, retrieval half: 6 templates over the seeded statement, accounts
and payees (balance, money paid to someone in a month, money in over a span, count by
category, largest expense of a category, a payee's IBAN). state_tasks.py holds the
state-task ones. Tiers by a person's actions (plan steps but the answer): easy < 6, medium 6–15, hard > 15.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.apps.bank import plans
from webfovea_breakingweb.apps.bank.content import CATEGORIES, DAYS_IN, MONTHS
from webfovea_breakingweb.apps.bank.routes import statement
from webfovea_breakingweb.apps.bank.state import BankState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, any_fetch, click, visible

API = "/api/bank"
PER_TEMPLATE = 8
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
Make = Callable[[BankState, Any, int], StatefulTask | None]


def tier(plan: list[dict[str, Any]]) -> str:
    n = sum(1 for s in plan if s["op"] != "answer")
    return "easy" if n < 6 else "medium" if n <= 15 else "hard"


def task(tid: str, instruction: str, plan: list[dict[str, Any]], **kw: Any) -> StatefulTask:
    targets = kw.pop("targets")
    return StatefulTask(
        task_id=tid, app="bank", instruction=instruction + SIGN_IN, plan=plan, noise=[],
        targets={"tier": tier(plan), "redo_from": 0, **targets}, **kw,
    )  # fmt: skip


def _statement_task(
    tid: str, text: str, plan: list[dict[str, Any]], value: str, **query: str
) -> StatefulTask:
    return task(
        tid, f"In your Northbank online banking, {text}", plan,
        category="complete data retrieval", state_changing=False, answer=value,
        failure_classes=["fill", "date_input"] + (["select"] if any(s["op"] == "select" for s in plan) else []),
        obligations=[{"request": {**any_fetch(f"{API}/transactions", "the statement carried the asked filters", **query), "status": {"lt": 400}}}],
        targets={"main": ["GET", f"{API}/transactions"], "submit": "#st-show", "submit_step": len(plan) - 2, "form": True},
    )  # fmt: skip


def _month(r: Any) -> tuple[str, str, str]:
    m = r.randint(1, 12)
    return MONTHS[m - 1], f"2024-{m:02d}-01", f"2024-{m:02d}-{DAYS_IN[m - 1]}"


def t_paid(state: BankState, r: Any, n: int) -> StatefulTask | None:
    name, frm, to = _month(r)
    cp = r.choice(sorted({c for cps, _, _ in CATEGORIES.values() for c in cps}))
    got = statement(state, {"account": "ACC-1", "from": frm, "to": to, "q": cp})
    if not got["money_out"]:
        return None
    plan = [*plans.statement(frm, to, q=cp), answer(L("#st-summary .out"))]
    return _statement_task(f"bank-paid-{n:02d}", f"how much did you pay to {cp} from your Everyday account in {name} 2024? Report the total.",
                           plan, plans.shown(got["money_out"]), **{"from": frm, "to": to, "q": cp})  # fmt: skip


def t_money_in(state: BankState, r: Any, n: int) -> StatefulTask:
    a, b = sorted(r.sample(range(1, 13), 2))
    frm, to = f"2024-{a:02d}-01", f"2024-{b:02d}-{DAYS_IN[b - 1]}"
    got = statement(state, {"account": "ACC-1", "from": frm, "to": to})
    plan = [*plans.statement(frm, to), answer(L("#st-summary .in"))]
    return _statement_task(f"bank-moneyin-{n:02d}", f"how much money came into your Everyday account from {frm} to {to} (both included)? Report the total.",
                           plan, plans.shown(got["money_in"]), **{"from": frm, "to": to})  # fmt: skip


def t_count(state: BankState, r: Any, n: int) -> StatefulTask:
    name, frm, to = _month(r)
    cat = r.choice(list(CATEGORIES))
    got = statement(state, {"account": "ACC-1", "from": frm, "to": to, "category": cat})
    plan = [*plans.statement(frm, to, category=cat), answer(L("#st-summary .count"))]
    return _statement_task(f"bank-count-{n:02d}", f"how many transactions of the category {cat} does your Everyday account show in {name} 2024? Report the number.",
                           plan, str(got["count"]), **{"from": frm, "to": to, "category": cat})  # fmt: skip


def t_largest(state: BankState, r: Any, n: int) -> StatefulTask | None:
    name, frm, to = _month(r)
    cat = r.choice(list(CATEGORIES))
    got = statement(state, {"account": "ACC-1", "from": frm, "to": to, "category": cat, "sort": "amount-asc"})
    rows = got["rows"]
    if (
        len(rows) < 2
        or rows[0]["amount"] == rows[1]["amount"]
        or rows[0]["counterparty"] == rows[1]["counterparty"]
    ):
        return None
    plan = [*plans.statement(frm, to, category=cat, sort="amount-asc", sort_label="Largest expense first"),
            answer(L("#statement tbody tr:first-child td.counterparty"))]  # fmt: skip
    return _statement_task(f"bank-largest-{n:02d}", f"who received your largest {cat} payment from the Everyday account in {name} 2024? Report the counterparty.",
                           plan, rows[0]["counterparty"], **{"from": frm, "to": to, "category": cat})  # fmt: skip


def t_balance(state: BankState, r: Any, n: int) -> StatefulTask:
    acc = r.choice(state.accounts)
    plan = [
        click(L("#nav-accounts"), expect=visible(L("#accounts"))),
        answer(L(f'#accounts tr[data-id="{acc.id}"] td.balance')),
    ]
    return task(f"bank-balance-{n:02d}", f"In your Northbank online banking, what is the balance of your {acc.name}? Report it.", plan,
                category="complete data retrieval", state_changing=False, answer=plans.shown(acc.balance),
                obligations=[{"request": {**any_fetch(f"{API}/accounts", "the accounts were read"), "status": {"lt": 400}}}],
                targets={"main": ["GET", f"{API}/accounts"], "submit": "#nav-accounts", "submit_step": 0})  # fmt: skip


def t_iban(state: BankState, r: Any, n: int) -> StatefulTask:
    p = r.choice(state.payees)
    plan = [
        click(L("#nav-payees"), expect=visible(L("#payees"))),
        answer(L(f'#payees tr[data-id="{p.id}"] td.iban')),
    ]
    return task(f"bank-iban-{n:02d}", f"In your Northbank online banking, which IBAN is saved for your payee {p.name}? Report it.", plan,
                category="complete data retrieval", state_changing=False, answer=p.iban,
                obligations=[{"request": {**any_fetch(f"{API}/payees", "the payees were read"), "status": {"lt": 400}}}],
                targets={"main": ["GET", f"{API}/payees"], "submit": "#nav-payees", "submit_step": 0,
                         **_lookalike(state, p)})  # fmt: skip


def _lookalike(state: BankState, p: Any) -> dict[str, Any]:
    """The seed's decoys, aliases and corruption act on the payee the instruction names; its
    look-alike is a payee of the same name with another payee's IBAN (seed/decoys)."""
    other = state.payees[(state.payees.index(p) + 1) % len(state.payees)]
    return {"decoy_of": p.id, "decoy": {"iban": other.iban}}


RETRIEVAL: dict[str, Make] = {
    "paid": t_paid,
    "moneyin": t_money_in,
    "count": t_count,
    "largest": t_largest,
    "balance": t_balance,
    "iban": t_iban,
}
