"""The bank's JSON API (under /api/bank): accounts, the statement with date, text and category
filters, payees, transfers with a review step before the confirmed write, standing orders.
Writes go through engine/store.py (save hooks, one transaction, validation)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from webfovea_breakingweb.apps.bank.state import (
    BankState,
    Payee,
    StandingOrder,
    Transaction,
    Transfer,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.routes import AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

SORTS = {
    "date-desc": lambda t: (t.date, t.id),
    "amount-asc": lambda t: (t.amount, t.id),
    "amount-desc": lambda t: (-t.amount, t.id),
}
MAX_ROWS = 120


def statement(state: BankState, q: dict[str, str]) -> dict[str, Any]:
    rows = [t for t in state.transactions if t.account == q.get("account", "ACC-1")]
    if q.get("from"):
        rows = [t for t in rows if t.date >= q["from"]]
    if q.get("to"):
        rows = [t for t in rows if t.date <= q["to"]]
    if q.get("category"):
        rows = [t for t in rows if t.category == q["category"]]
    words = q.get("q", "").lower().split()
    rows = [t for t in rows if all(w in f"{t.counterparty} {t.description}".lower() for w in words)]
    sort = q.get("sort", "date-desc")
    rows.sort(key=SORTS.get(sort, SORTS["date-desc"]), reverse=sort == "date-desc")  # type: ignore[arg-type]
    return {
        "count": len(rows),
        "money_in": sum(t.amount for t in rows if t.amount > 0),
        "money_out": -sum(t.amount for t in rows if t.amount < 0),
        "rows": [t.model_dump() for t in rows[:MAX_ROWS]],
        "truncated": len(rows) > MAX_ROWS,
    }


def _money(f: dict[str, Any], key: str = "amount") -> int:
    v = f.get(key)
    if not isinstance(v, int) or v < 1:
        raise st.Rejected(f"{key}: enter an amount above zero")
    return v


def _review(state: BankState, f: dict[str, Any]) -> dict[str, Any]:
    acc = st.find(state.accounts, str(f.get("account")), "account")
    payee = st.find(state.payees, str(f.get("payee")), "payee")
    amount = _money(f)
    if amount > acc.balance:
        raise st.Rejected(f"Insufficient funds on {acc.name}.")
    if not str(f.get("reference", "")).strip():
        raise st.Rejected("reference: enter a reference")
    return {"account": acc.id, "account_name": acc.name, "payee": payee.id, "payee_name": payee.name,
            "iban": payee.iban, "amount": amount, "reference": str(f["reference"]).strip()}  # fmt: skip


def _transfer(state: BankState, f: dict[str, Any]) -> dict[str, Any]:
    r = _review(state, f)
    day = st.now(state)[:10]
    tr = Transfer(id=st.next_id(state.transfers, "TR-"), account=r["account"], payee=r["payee"],
                  amount=r["amount"], reference=r["reference"], date=day)  # fmt: skip
    state.transfers.append(tr)
    state.transactions.append(
        Transaction(id=st.next_id(state.transactions, "T-"), account=r["account"], date=day,
                    counterparty=r["payee_name"], description=f"Transfer: {r['reference']}",
                    category="Transfer", amount=-r["amount"])
    )  # fmt: skip
    st.find(state.accounts, r["account"], "account").balance -= r["amount"]
    return {"message": "Transfer sent. Reference", "id": tr.id}


def _standing(state: BankState, sid: str | None, f: dict[str, Any]) -> dict[str, Any]:
    st.find(state.payees, str(f.get("payee")), "payee")
    fields = {k: f.get(k) for k in ("account", "payee", "amount", "frequency", "start", "reference")}
    fields["account"] = fields["account"] or "ACC-1"
    _money(fields)
    if sid is None:
        so = StandingOrder(id=st.next_id(state.standing, "SO-"), **fields)
        state.standing.append(so)
    else:
        old = st.find(state.standing, sid, "standing order")
        so = StandingOrder(**{**old.model_dump(), **fields})
        state.standing[state.standing.index(old)] = so
    return {"message": "Standing order saved. Reference", "id": so.id}


def _payee(state: BankState, f: dict[str, Any]) -> dict[str, Any]:
    name = str(f.get("name", "")).strip()
    if any(p.name.lower() == name.lower() for p in state.payees):
        raise st.Rejected(f"You already have a payee called {name}.")
    p = Payee(
        id=st.next_id(state.payees, "PY-"), name=name, iban=str(f.get("iban", "")).replace(" ", "").upper()
    )
    state.payees.append(p)
    return {"message": "Payee added. Reference", "id": p.id}


def _delete_payee(state: BankState, pid: str) -> dict[str, Any]:
    p = st.find(state.payees, pid, "payee")
    if any(o.payee == pid and o.status == "active" for o in state.standing):
        raise st.Rejected(f"{p.name} has an active standing order; cancel it first.")
    state.payees.remove(p)
    return {"message": f"Payee {p.name} deleted.", "id": pid}


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)

    @r.read("/accounts")
    def accounts(c: Call) -> dict[str, Any]:
        return {"accounts": [a.model_dump() for a in c.state.accounts]}

    @r.read("/transactions")
    def transactions(c: Call) -> dict[str, Any]:
        return statement(c.state, c.query)

    @r.read("/payees")
    def payees(c: Call) -> dict[str, Any]:
        return {"payees": [p.model_dump() for p in c.state.payees]}

    @r.read("/transfers")
    def transfers(c: Call) -> dict[str, Any]:
        return {"transfers": [t.model_dump() for t in reversed(c.state.transfers)]}

    @r.read("/standing")
    def standing(c: Call) -> dict[str, Any]:
        return {"standing": [o.model_dump() for o in c.state.standing]}

    @r.write("/payees")
    def add_payee(c: Call) -> dict[str, Any]:
        return _payee(c.state, c.submitted())

    @r.write("/payees/{pid}", method="DELETE", body=None)
    def delete_payee(c: Call, pid: str) -> dict[str, Any]:
        return _delete_payee(c.state, pid)

    @r.write("/transfers/review", transact=False)  # checks the transfer, changes nothing
    def review(c: Call) -> dict[str, Any]:
        return {"review": _review(c.state, c.body)}

    @r.write("/transfers")
    def transfer(c: Call) -> dict[str, Any]:
        return _transfer(c.state, c.submitted())

    @r.write("/standing")
    def new_standing(c: Call) -> dict[str, Any]:
        return _standing(c.state, None, c.submitted())

    @r.write("/standing/{sid}", method="PUT")
    def edit_standing(c: Call, sid: str) -> dict[str, Any]:
        return _standing(c.state, sid, c.submitted(sid))

    @r.write("/standing/{sid}/cancel", body=None)
    def cancel_standing(c: Call, sid: str) -> dict[str, Any]:
        o = st.find(c.state.standing, sid, "standing order")
        o.status = "cancelled"
        return {"message": f"Standing order {sid} cancelled.", "id": sid}
