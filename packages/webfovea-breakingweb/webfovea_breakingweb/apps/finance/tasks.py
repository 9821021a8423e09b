"""The finance site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): reading a
notification, opening a statement, pausing or changing a recurring investment, market and
limit orders from the home screen, a position or a search, watchlists, cancelling an open order,
deposits and withdrawals.

An instruction names a stock by company and symbol, an order by its stock, side, shares and
limit, a notification by its category, title and sender; obligations are every change the
writes make (common.Sim), so anything else that changes breaks an invariant. The readback
holds only when the backend holds the change, on `verify_path` after a fresh load."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.finance import plans as p
from webfovea_breakingweb.apps.finance.common import API, Sim, make, name_of, write_targets
from webfovea_breakingweb.apps.finance.market import shown
from webfovea_breakingweb.apps.finance.state import FinanceState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, click, fill, text_has, value_is, visible

PER_TEMPLATE = 6
LIST_NAMES = ("Long term", "Green energy", "Watch closely", "Earnings plays", "Health picks", "Small caps")
FREQUENCIES = ("weekly", "biweekly", "monthly")


def _just_after(created: str) -> str:
    """A time 30 seconds after `created`: a look-alike listed just above it (newest first)."""
    return created[:17] + "30Z"


def order_targets(plan: list[Any], oid: str, status: str, *, redo_from: int = 0) -> dict[str, Any]:
    row = f'#orders tr[data-id="{oid}"] td.status'
    return write_targets(f"{API}/orders", plan, "#order-submit", text_has(L(row), status), "/orders",
                         listing=f"{API}/orders", redo_from=redo_from, form=True)  # fmt: skip


def transfer_targets(plan: list[Any], tid: str, *, redo_from: int = 0) -> dict[str, Any]:
    return write_targets(f"{API}/transfers", plan, "#tr-confirm", visible(L(f'#transfers tr[data-id="{tid}"]')),
                         "/transfers", listing=f"{API}/transfers", redo_from=redo_from, form=True)  # fmt: skip


def affordable(state: FinanceState, sym: str, budget: int = 150000) -> int:
    """Shares of `sym` a modest order buys (1 to 5, under `budget` cents)."""
    price = next(s.price for s in state.stocks if s.id == sym)
    return max(1, min(5, budget // price))


def t_read_notification(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    note = r.choice([x for x in state.notifications if not x.read])
    row = f'#notifications tr[data-id="{note.id}"]'
    plan = [
        click(L("#nav-notifications"), expect=visible(L(row))),
        click(L(f"{row} .open"), expect=visible(L(f"{row}.read"))),
    ]
    sim = Sim(state)
    sim.set("notifications", note.id, read=True)
    other = r.choice(sorted({"Orders", "Transfers", "Documents", "Account", "Markets"} - {note.category}))
    targets = write_targets(f"{API}/notifications/{note.id}/read", plan, f"{row} .open", visible(L(f"{row}.read")),
                            "/notifications", listing=f"{API}/notifications")  # fmt: skip
    return make("read-notification", n, f"On Kestrel, open and read the {note.category} notification “{note.title}” from {note.sender}.",
                plan, sim, {**targets, "decoy_of": note.id, "decoy": {"category": other, "created": _just_after(note.created)}})  # fmt: skip


def t_open_statement(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    doc = r.choice([d for d in state.documents if d.kind == "statement" and not d.viewed])
    plan = p.open_statement(doc.id)
    sim = Sim(state)
    sim.set("documents", doc.id, viewed=True)
    row = f'#documents tr[data-id="{doc.id}"]'
    return make("open-statement", n, f"On Kestrel, open your monthly account statement “{doc.title}” under Documents.", plan, sim,
                write_targets(f"{API}/documents/{doc.id}/view", plan, f"{row} .open", visible(L(f"{row}.viewed")),
                              "/documents", listing=f"{API}/documents"))  # fmt: skip


def t_pause_recurring(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    rec = r.choice([x for x in state.recurring if x.status == "active"])
    row = f'#recurring tr[data-id="{rec.id}"]'
    plan = [click(L("#nav-recurring"), expect=visible(L(row))),
            click(L(f"{row} .pause"), expect=text_has(L(f"{row} td.status"), "Paused"))]  # fmt: skip
    sim = Sim(state)
    sim.set("recurring", rec.id, status="paused")
    other = r.choice([f for f in FREQUENCIES if f != rec.frequency])
    targets = write_targets(f"{API}/recurring/{rec.id}/status", plan, f"{row} .pause", text_has(L(f"{row} td.status"), "Paused"),
                            "/recurring", listing=f"{API}/recurring")  # fmt: skip
    return make("pause-recurring", n, f"On Kestrel, pause your {rec.frequency} recurring investment of ${rec.amount} in {rec.name} ({rec.symbol}).",
                plan, sim, {**targets, "decoy_of": rec.id, "decoy": {"frequency": other}})  # fmt: skip


def t_buy_market_watch(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    w = r.choice(state.watchlists)
    sym = r.choice(w.symbols)
    shares = affordable(state, sym)
    sim = Sim(state)
    oid = sim.order(sym, "buy", shares)
    plan = [p.from_home_list(w.id, sym), *p.ticket("buy", shares, oid)]
    return make("buy-market-watch", n, f"On Kestrel, from your “{w.name}” watchlist on the home screen, buy {shares} shares of "
                f"{name_of(state, sym)} with a market order.", plan, sim, order_targets(plan, oid, "filled", redo_from=1))  # fmt: skip


def free_shares(state: FinanceState, sym: str) -> int:
    pos = next(x for x in state.positions if x.id == sym)
    return pos.shares - sum(
        o.shares for o in state.orders if o.symbol == sym and o.side == "sell" and o.status == "open"
    )


def t_sell_market(state: FinanceState, r: random.Random, n: int) -> StatefulTask | None:
    pos = r.choice(state.positions)
    if free_shares(state, pos.id) < 2:
        return None
    shares = r.randint(1, min(5, free_shares(state, pos.id) - 1))
    sim = Sim(state)
    oid = sim.order(pos.id, "sell", shares)
    plan = [p.from_positions(pos.id), *p.ticket("sell", shares, oid)]
    return make("sell-market", n, f"On Kestrel, sell {shares} of your shares of {name_of(state, pos.id)} with a market order.",
                plan, sim, order_targets(plan, oid, "filled", redo_from=1))  # fmt: skip


def t_watch_add(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    w = r.choice(state.watchlists)
    sym = r.choice(sorted({s.id for s in state.stocks} - set(w.symbols)))
    sim = Sim(state)
    sim.add(w.id, sym)
    plan = [*p.search(sym), *p.add_to_list(w.id, w.name, sym)]
    readback = visible(L(f'#lists section.wl[data-id="{w.id}"] tr[data-symbol="{sym}"]'))
    return make("watch-add", n, f"On Kestrel, add {name_of(state, sym)} to your watchlist “{w.name}”.", plan, sim,
                write_targets(f"{API}/watchlists/{w.id}/add", plan, "#wl-add", readback, "/lists",
                              listing=f"{API}/stocks/{sym}", form=True))  # fmt: skip


def t_cancel_order(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    o = r.choice([x for x in state.orders if x.status == "open"])
    sim = Sim(state)
    sim.cancel(o.id)
    plan = p.cancel_order(o.id)
    row = f'#orders tr[data-id="{o.id}"]'
    targets = write_targets(f"{API}/orders/{o.id}/cancel", plan, f"{row} .confirm-cancel", text_has(L(f"{row} td.status"), "cancelled"),
                            "/orders", listing=f"{API}/orders")  # fmt: skip
    decoy = {
        "limit_price": (o.limit_price or 0) + r.choice((-1, 1)) * r.randint(20, 90),
        "created": _just_after(o.created),
    }
    return make("cancel-order", n, f"On Kestrel, cancel your open limit order to {o.side} {o.shares} shares of {o.name} ({o.symbol}) "
                f"at {shown(o.limit_price or 0)}.", plan, sim, {**targets, "decoy_of": o.id, "decoy": decoy})  # fmt: skip


def t_recurring_amount(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    rec = r.choice([x for x in state.recurring if x.status == "active"])
    amount = rec.amount + r.randint(1, 8) * 5
    row = f'#recurring tr[data-id="{rec.id}"]'
    plan = [
        click(L("#nav-recurring"), expect=visible(L(row))),
        click(L(f"{row} .edit"), expect=value_is(L("#rec-amount"), str(rec.amount))),
        fill(L("#rec-amount"), str(amount), expect=value_is(L("#rec-amount"), str(amount))),
        click(L("#rec-save"), expect=text_has(L(f"{row} td.amount"), shown(amount * 100))),
    ]
    sim = Sim(state)
    sim.set("recurring", rec.id, amount=amount)
    targets = write_targets(f"{API}/recurring/{rec.id}", plan, "#rec-save", text_has(L(f"{row} td.amount"), shown(amount * 100)),
                            "/recurring", listing=f"{API}/recurring", form=True)  # fmt: skip
    targets["drift"] = {"field": "amount", "kind": "truncate", "value": str(amount), "input": "#rec-amount"}
    return make("recurring-amount", n, f"On Kestrel, change your {rec.frequency} recurring investment in {rec.name} ({rec.symbol}) "
                f"from ${rec.amount} to ${amount} a purchase; change nothing else.", plan, sim, targets)  # fmt: skip


def t_deposit(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    amount = r.randint(2, 40) * 5000 + r.choice((0, 2500))
    sim = Sim(state)
    tid = sim.transfer("deposit", amount)
    plan = p.transfer("deposit", amount, tid)
    return make("deposit", n, f"On Kestrel, deposit {shown(amount)} from your linked bank account into your brokerage account.",
                plan, sim, transfer_targets(plan, tid))  # fmt: skip


def t_withdraw(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    amount = r.randint(2, 30) * 5000 + r.choice((0, 2500))
    sim = Sim(state)
    tid = sim.transfer("withdraw", amount)
    plan = p.transfer("withdraw", amount, tid)
    return make("withdraw", n, f"On Kestrel, withdraw {shown(amount)} of your buying power to your linked bank account.",
                plan, sim, transfer_targets(plan, tid))  # fmt: skip


def limit_below(state: FinanceState, sym: str, r: random.Random) -> int:
    price = next(s.price for s in state.stocks if s.id == sym)
    return price * r.randint(85, 95) // 100


def t_buy_limit(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    sym = r.choice([s.id for s in state.stocks])
    shares, limit = affordable(state, sym) + r.randint(0, 3), limit_below(state, sym, r)
    sim = Sim(state)
    oid = sim.order(sym, "buy", shares, limit, "gtc")
    plan = [*p.search(sym), *p.ticket("buy", shares, oid, limit=limit, tif="gtc")]
    return make("buy-limit", n, f"On Kestrel, place a limit order to buy {shares} shares of {name_of(state, sym)} at "
                f"{shown(limit)}, good till cancelled.", plan, sim, order_targets(plan, oid, "open"))  # fmt: skip


def t_new_list(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    name = r.choice(LIST_NAMES)
    sym = r.choice([s.id for s in state.stocks])
    sim = Sim(state)
    wid = sim.new_list(name)
    sim.add(wid, sym)
    plan = [*p.new_list(name, wid), *p.search(sym), *p.add_to_list(wid, name, sym)]
    readback = visible(L(f'#lists section.wl[data-id="{wid}"] tr[data-symbol="{sym}"]'))
    return make("new-list", n, f"On Kestrel, create a watchlist named “{name}” and add {name_of(state, sym)} to it.", plan, sim,
                write_targets(f"{API}/watchlists/{wid}/add", plan, "#wl-add", readback, "/lists",
                              listing=f"{API}/stocks/{sym}", redo_from=3, form=True))  # fmt: skip


def t_sell_limit(state: FinanceState, r: random.Random, n: int) -> StatefulTask | None:
    pos = r.choice(state.positions)
    free = free_shares(state, pos.id)
    if free < 2:
        return None
    shares = r.randint(1, min(6, free - 1))
    price = next(s.price for s in state.stocks if s.id == pos.id)
    limit = price * r.randint(105, 120) // 100
    sim = Sim(state)
    oid = sim.order(pos.id, "sell", shares, limit)
    plan = [p.from_positions(pos.id), *p.ticket("sell", shares, oid, limit=limit)]
    return make("sell-limit", n, f"On Kestrel, place a limit order to sell {shares} of your shares of {name_of(state, pos.id)} at "
                f"{shown(limit)}, good for the day.", plan, sim, order_targets(plan, oid, "open", redo_from=1))  # fmt: skip


TEMPLATES = {
    "read-notification": t_read_notification, "open-statement": t_open_statement, "pause-recurring": t_pause_recurring,
    "buy-market-watch": t_buy_market_watch, "sell-market": t_sell_market, "watch-add": t_watch_add,
    "cancel-order": t_cancel_order, "recurring-amount": t_recurring_amount, "deposit": t_deposit, "withdraw": t_withdraw,
    "buy-limit": t_buy_limit, "new-list": t_new_list, "sell-limit": t_sell_limit,
}  # fmt: skip
