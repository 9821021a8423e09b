"""The finance site's public API under /api/env/finance (seed 003 A.1: the only surface the
page and the agent touch). Reads return the typed records as JSON; writes run in a transaction
(engine/routes.py), so a refusal leaves nothing half-written and the clock advances once.

Orders follow market.py (fills, holds, reservations); an order the account cannot afford, a
sell of more shares than are free, a transfer above the limit or above the buying power is
refused with the reason (422). The order ticket's review is the page's: the API takes the
submitted order.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.finance import market
from webfovea_breakingweb.apps.finance.state import (
    Direction,
    FinanceState,
    OrderType,
    Side,
    TimeInForce,
    Transfer,
    Watchlist,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

ORDER_STATUSES = ("all", "open", "filled", "cancelled")
DOC_KINDS = ("statement", "tax", "confirm")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewOrder(_Body):
    symbol: str = Field(min_length=1, max_length=8)
    side: Side
    type: OrderType
    shares: int = Field(gt=0, le=100000)
    limit_price: str | None = None  # dollars as typed ("41.20")
    time_in_force: TimeInForce = "gfd"


class NewTransfer(_Body):
    direction: Direction
    amount: str = Field(min_length=1, max_length=20)  # dollars as typed


class NewList(_Body):
    name: str = Field(min_length=1, max_length=40)


class SymbolBody(_Body):
    symbol: str = Field(min_length=1, max_length=8)


class AmountBody(_Body):
    amount: int = Field(gt=0, le=10000)  # whole dollars


class StatusBody(_Body):
    status: Literal["active", "paused"]


def quote(state: FinanceState, sym: str) -> dict[str, Any]:
    s = market.stock(state, sym)
    return {"symbol": s.id, "name": s.name, "price": s.price, "change": s.price - s.prev_close}


def holdings(state: FinanceState) -> list[dict[str, Any]]:
    prices = {s.id: s for s in state.stocks}
    return [
        {**p.model_dump(), "symbol": p.id, "name": prices[p.id].name, "price": prices[p.id].price,
         "value": p.shares * prices[p.id].price, "gain": p.shares * (prices[p.id].price - p.avg_cost)}
        for p in sorted(state.positions, key=lambda p: p.id)
    ]  # fmt: skip


def search(state: FinanceState, q: str) -> list[dict[str, Any]]:
    """Stocks whose symbol starts with `q` or whose name holds it (case-blind); symbols first."""
    text = q.strip().lower()
    if not text:
        return []
    hits = [s for s in state.stocks if s.id.lower().startswith(text) or text in s.name.lower()]
    hits.sort(key=lambda s: (not s.id.lower().startswith(text), s.id))
    return [quote(state, s.id) for s in hits]


def newest_first(records: list[Any]) -> list[Any]:
    """Newest first by time, then by id (a list's one order, whatever order it is stored in)."""
    return sorted(records, key=lambda x: (x.created, x.id), reverse=True)


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/account")
    def account(c: Call) -> dict[str, Any]:
        state: FinanceState = c.state
        return {"account": state.accounts[0].model_dump(), "positions": holdings(state),
                "held": market.held(state), "value": market.portfolio_value(state),
                "unread": sum(1 for n in state.notifications if not n.read)}  # fmt: skip

    @r.read("/stocks")
    def stocks(c: Call) -> dict[str, Any]:
        return {"results": search(c.state, c.query.get("q", ""))}

    @r.read("/stocks/{sym}")
    def stock(c: Call, sym: str) -> dict[str, Any]:
        state: FinanceState = c.state
        s = market.stock(state, sym)
        pos = market.position(state, s.id)
        return {
            "stock": s.model_dump(), "position": pos.model_dump() if pos else None,
            "free_shares": (pos.shares if pos else 0) - market.reserved(state, s.id),
            "orders": [o.model_dump() for o in newest_first(state.orders) if o.symbol == s.id and o.status == "open"],
            "watchlists": [w.id for w in state.watchlists if s.id in w.symbols],
            "buying_power": state.accounts[0].buying_power,
        }  # fmt: skip

    @r.read("/watchlists")
    def watchlists(c: Call) -> dict[str, Any]:
        state: FinanceState = c.state
        return {
            "watchlists": [
                {**w.model_dump(), "quotes": [quote(state, x) for x in w.symbols]} for w in state.watchlists
            ]
        }

    @r.write("/watchlists", body=NewList)
    def new_list(c: Call) -> dict[str, Any]:
        name = c.body.name.strip()
        if any(w.name.lower() == name.lower() for w in c.state.watchlists):
            raise st.Rejected(f"You already have a list named “{name}”.")
        w = Watchlist(id=st.next_id(c.state.watchlists, "W-"), name=name)
        c.state.watchlists.append(w)
        return {"message": f"List “{name}” created. Reference", "id": w.id}

    @r.write("/watchlists/{wid}/add", body=SymbolBody)
    def add(c: Call, wid: str) -> dict[str, Any]:
        w = st.find(c.state.watchlists, wid, "list")
        sym = market.stock(c.state, c.body.symbol).id
        if sym not in w.symbols:
            w.symbols.append(sym)
        return {"message": f"{sym} is on “{w.name}”."}

    @r.write("/watchlists/{wid}/remove", body=SymbolBody)
    def remove(c: Call, wid: str) -> dict[str, Any]:
        w = st.find(c.state.watchlists, wid, "list")
        w.symbols = [x for x in w.symbols if x != c.body.symbol.upper()]
        return {"message": f"{c.body.symbol.upper()} removed from “{w.name}”."}

    @r.read("/orders")
    def orders(c: Call) -> dict[str, Any]:
        status = c.query.get("status", "all")
        if status not in ORDER_STATUSES:
            raise st.Rejected(f"unknown status {status!r}; one of {', '.join(ORDER_STATUSES)}")
        got = [o.model_dump() for o in newest_first(c.state.orders) if status in ("all", o.status)]
        return {"orders": got}

    @r.write("/orders", body=NewOrder)
    def place(c: Call) -> dict[str, Any]:
        b = c.body
        limit = market.cents(b.limit_price, "limit_price") if b.type == "limit" and b.limit_price else None
        o = market.place(c.state, b.symbol, b.side, b.type, b.shares, limit, b.time_in_force, st.now(c.state))
        done = "filled" if o.status == "filled" else "placed"
        return {
            "message": f"Your {o.type} order to {o.side} {o.shares} {o.symbol} was {done}. Reference",
            "id": o.id,
        }

    @r.write("/orders/{oid}/cancel", body=LENIENT)
    def cancel(c: Call, oid: str) -> dict[str, Any]:
        o = market.cancel(c.state, oid)
        return {"message": f"Order {o.id} cancelled."}

    @r.read("/transfers")
    def transfers(c: Call) -> dict[str, Any]:
        acc = c.state.accounts[0]
        return {"transfers": [t.model_dump() for t in newest_first(c.state.transfers)], "bank": f"{acc.bank} ••{acc.bank_last4}",
                "buying_power": acc.buying_power}  # fmt: skip

    @r.write("/transfers", body=NewTransfer)
    def transfer(c: Call) -> dict[str, Any]:
        state: FinanceState = c.state
        amount = market.cents(c.body.amount, "amount")
        market.transfer_check(state, c.body.direction, amount)
        acc = state.accounts[0]
        acc.buying_power += amount if c.body.direction == "deposit" else -amount
        t = Transfer(id=st.next_id(state.transfers, "TR-"), direction=c.body.direction, amount=amount,
                     bank=f"{acc.bank} ••{acc.bank_last4}", created=st.now(state))  # fmt: skip
        state.transfers.append(t)
        return {
            "message": f"{market.shown(amount)} {'deposited' if t.direction == 'deposit' else 'withdrawn'}. Reference",
            "id": t.id,
        }

    @r.read("/recurring")
    def recurring(c: Call) -> dict[str, Any]:
        return {"recurring": [x.model_dump() for x in c.state.recurring]}

    @r.write("/recurring/{rid}", body=AmountBody)
    def set_amount(c: Call, rid: str) -> dict[str, Any]:
        rec = st.find(c.state.recurring, rid, "recurring investment")
        fields = c.submitted(rid, c.body.model_dump())
        rec.amount = int(fields["amount"])
        return {"message": f"Saved: {market.shown(rec.amount * 100)} of {rec.symbol} {rec.frequency}."}

    @r.write("/recurring/{rid}/status", body=StatusBody)
    def set_status(c: Call, rid: str) -> dict[str, Any]:
        rec = st.find(c.state.recurring, rid, "recurring investment")
        rec.status = c.body.status
        return {
            "message": f"Recurring investment in {rec.symbol} {'paused' if rec.status == 'paused' else 'resumed'}."
        }

    @r.read("/documents")
    def documents(c: Call) -> dict[str, Any]:
        kind = c.query.get("kind", "statement")
        if kind not in DOC_KINDS:
            raise st.Rejected(f"unknown kind {kind!r}; one of {', '.join(DOC_KINDS)}")
        docs = [d for d in newest_first(c.state.documents) if d.kind == kind]
        return {"documents": [d.model_dump(exclude={"lines"}) for d in docs]}

    @r.read("/documents/{did}")
    def document(c: Call, did: str) -> dict[str, Any]:
        return {"document": st.find(c.state.documents, did, "document").model_dump()}

    @r.write("/documents/{did}/view", body=LENIENT)
    def view(c: Call, did: str) -> dict[str, Any]:
        st.find(c.state.documents, did, "document").viewed = True
        return {}

    @r.read("/notifications")
    def notifications(c: Call) -> dict[str, Any]:
        got = newest_first(c.state.notifications)
        return {"notifications": [n.model_dump() for n in got], "unread": sum(1 for n in got if not n.read)}

    @r.write("/notifications/{nid}/read", body=LENIENT)
    def read(c: Call, nid: str) -> dict[str, Any]:
        st.find(c.state.notifications, nid, "notification").read = True
        return {}
