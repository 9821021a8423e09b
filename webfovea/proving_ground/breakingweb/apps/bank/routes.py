"""The bank's JSON API (under /api/bank): accounts, the statement with date, text and category
filters, payees, transfers with a review step before the confirmed write, standing orders.
Writes go through engine/store.py (save hooks, one transaction, validation)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from webfovea.proving_ground.breakingweb.apps.bank.state import (
    BankState,
    Payee,
    StandingOrder,
    Transaction,
    Transfer,
)
from webfovea.proving_ground.breakingweb.engine import store as st
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec
from webfovea.proving_ground.sessions import SessionStore

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


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:  # noqa: C901 - one route each
    api = app.api

    async def _ctx(request: Request, write: bool, rid: str | None = None) -> Any:
        s = st.session_for(request, store, app)
        if isinstance(s, JSONResponse) or not write:
            return s, {}
        body = await st.body_of(request)
        if isinstance(body, JSONResponse):
            return body, {}
        return s, st.submitted(s, app, rid, body)

    def _read(path: str, view: Any) -> None:
        async def handler(request: Request) -> JSONResponse:
            s, _ = await _ctx(request, False)
            if isinstance(s, JSONResponse):
                return s
            return JSONResponse({"ok": True, **view(s.state, dict(request.query_params))})

        main.add_api_route(api + path, handler, methods=["GET"])

    _read("/accounts", lambda s, q: {"accounts": [a.model_dump() for a in s.accounts]})
    _read("/transactions", statement)
    _read("/payees", lambda s, q: {"payees": [p.model_dump() for p in s.payees]})
    _read("/transfers", lambda s, q: {"transfers": [t.model_dump() for t in reversed(s.transfers)]})
    _read("/standing", lambda s, q: {"standing": [o.model_dump() for o in s.standing]})

    @main.post(api + "/payees")
    async def add_payee(request: Request) -> JSONResponse:
        s, f = await _ctx(request, True)
        if isinstance(s, JSONResponse):
            return s

        def change(state: BankState) -> dict[str, Any]:
            name = str(f.get("name", "")).strip()
            if any(p.name.lower() == name.lower() for p in state.payees):
                raise st.Rejected(f"You already have a payee called {name}.")
            p = Payee(
                id=st.next_id(state.payees, "PY-"),
                name=name,
                iban=str(f.get("iban", "")).replace(" ", "").upper(),
            )
            state.payees.append(p)
            return {"message": "Payee added. Reference", "id": p.id}

        return st.answer(s, change)

    @main.delete(api + "/payees/{pid}")
    async def delete_payee(pid: str, request: Request) -> JSONResponse:
        s, _ = await _ctx(request, False)
        if isinstance(s, JSONResponse):
            return s

        def change(state: BankState) -> dict[str, Any]:
            p = st.find(state.payees, pid, "payee")
            if any(o.payee == pid and o.status == "active" for o in state.standing):
                raise st.Rejected(f"{p.name} has an active standing order; cancel it first.")
            state.payees.remove(p)
            return {"message": f"Payee {p.name} deleted.", "id": pid}

        return st.answer(s, change)

    @main.post(api + "/transfers/review")
    async def review(request: Request) -> JSONResponse:
        s, _ = await _ctx(request, False)
        if isinstance(s, JSONResponse):
            return s
        body = await st.body_of(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            return JSONResponse({"ok": True, "review": _review(s.state, body)})
        except st.Rejected as e:
            return st.error(str(e), e.status)
        except LookupError as e:
            return st.error(str(e).strip("'\""), 404)

    @main.post(api + "/transfers")
    async def transfer(request: Request) -> JSONResponse:
        s, f = await _ctx(request, True)
        if isinstance(s, JSONResponse):
            return s
        return st.answer(s, lambda state: _transfer(state, f))

    @main.post(api + "/standing")
    async def new_standing(request: Request) -> JSONResponse:
        s, f = await _ctx(request, True)
        if isinstance(s, JSONResponse):
            return s
        return st.answer(s, lambda state: _standing(state, None, f))

    @main.put(api + "/standing/{sid}")
    async def edit_standing(sid: str, request: Request) -> JSONResponse:
        s, f = await _ctx(request, True, sid)
        if isinstance(s, JSONResponse):
            return s
        return st.answer(s, lambda state: _standing(state, sid, f))

    @main.post(api + "/standing/{sid}/cancel")
    async def cancel_standing(sid: str, request: Request) -> JSONResponse:
        s, _ = await _ctx(request, False)
        if isinstance(s, JSONResponse):
            return s

        def change(state: BankState) -> dict[str, Any]:
            o = st.find(state.standing, sid, "standing order")
            o.status = "cancelled"
            return {"message": f"Standing order {sid} cancelled.", "id": sid}

        return st.answer(s, change)
