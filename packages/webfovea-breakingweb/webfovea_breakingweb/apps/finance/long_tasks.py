"""The finance site's long task templates, tiers T4 and T5: funding the account and buying,
rebalancing (sell one holding, buy another), replacing an open order at a new limit, starting a
watchlist and buying from it, and a month's end (read the statement, deposit, place a limit
order). Their main write (the one the families aim at) is the last; a redo starts at that
write's own steps (from the header, which a sign-in does not take away)."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.finance import plans as p
from webfovea_breakingweb.apps.finance.common import Sim, make, name_of
from webfovea_breakingweb.apps.finance.market import shown
from webfovea_breakingweb.apps.finance.state import FinanceState
from webfovea_breakingweb.apps.finance.tasks import (
    LIST_NAMES,
    affordable,
    free_shares,
    limit_below,
    order_targets,
)
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, click, visible


def t_fund_and_buy(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    sym = r.choice([s.id for s in state.stocks])
    shares = affordable(state, sym) + r.randint(0, 4)
    amount = r.randint(4, 30) * 5000
    sim = Sim(state)
    tid = sim.transfer("deposit", amount)
    oid = sim.order(sym, "buy", shares)
    plan = p.transfer("deposit", amount, tid)
    start = len(plan)
    plan += [*p.search(sym), *p.ticket("buy", shares, oid)]
    return make("fund-and-buy", n, f"On Kestrel, deposit {shown(amount)} from your linked bank, then buy {shares} shares of "
                f"{name_of(state, sym)} with a market order.", plan, sim, order_targets(plan, oid, "filled", redo_from=start))  # fmt: skip


def t_rebalance(state: FinanceState, r: random.Random, n: int) -> StatefulTask | None:
    pos = r.choice(state.positions)
    if free_shares(state, pos.id) < 2:
        return None
    sold = r.randint(1, min(5, free_shares(state, pos.id) - 1))
    sym = r.choice(sorted({s.id for s in state.stocks} - {x.id for x in state.positions}))
    shares = affordable(state, sym)
    sim = Sim(state)
    sell = sim.order(pos.id, "sell", sold)
    oid = sim.order(sym, "buy", shares)
    plan = [p.from_positions(pos.id), *p.ticket("sell", sold, sell)]
    start = len(plan)
    plan += [*p.search(sym), *p.ticket("buy", shares, oid)]
    return make("rebalance", n, f"On Kestrel, sell {sold} of your shares of {name_of(state, pos.id)} at the market, then start a position "
                f"in {name_of(state, sym)} by buying {shares} shares at the market.", plan, sim,
                order_targets(plan, oid, "filled", redo_from=start))  # fmt: skip


def t_replace_order(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    o = r.choice([x for x in state.orders if x.status == "open"])
    assert o.limit_price is not None
    limit = o.limit_price + r.choice((-1, 1)) * o.limit_price * r.randint(2, 4) // 100
    sim = Sim(state)
    sim.cancel(o.id)
    oid = sim.order(o.symbol, o.side, o.shares, limit, "gtc")
    plan = p.cancel_order(o.id)
    start = len(plan)
    plan += [*p.search(o.symbol), *p.ticket(o.side, o.shares, oid, limit=limit, tif="gtc")]
    return make("replace-order", n, f"On Kestrel, your open limit order to {o.side} {o.shares} shares of {o.name} ({o.symbol}) at "
                f"{shown(o.limit_price)} should be at {shown(limit)}: cancel it and place the same order at {shown(limit)}, "
                "good till cancelled.", plan, sim, order_targets(plan, oid, "open", redo_from=start))  # fmt: skip


def t_new_list_buy(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    name = r.choice(LIST_NAMES)
    a, b = r.sample([s.id for s in state.stocks], 2)
    shares = affordable(state, a)
    sim = Sim(state)
    wid = sim.new_list(name)
    sim.add(wid, a)
    sim.add(wid, b)
    oid = sim.order(a, "buy", shares)
    plan = [
        *p.new_list(name, wid),
        *p.search(a),
        *p.add_to_list(wid, name, a),
        *p.search(b),
        *p.add_to_list(wid, name, b),
    ]
    start = len(plan)
    plan += [click(L("#nav-home"), expect=visible(L(f'#home-lists section.wl[data-id="{wid}"]'))),
             p.from_home_list(wid, a), *p.ticket("buy", shares, oid)]  # fmt: skip
    return make("new-list-buy", n, f"On Kestrel, create a watchlist named “{name}” with {name_of(state, a)} and {name_of(state, b)} on it; "
                f"then, from that list on the home screen, buy {shares} shares of {a} with a market order.", plan, sim,
                order_targets(plan, oid, "filled", redo_from=start))  # fmt: skip


def t_month_end(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    doc = r.choice([d for d in state.documents if d.kind == "statement" and not d.viewed])
    amount = r.randint(4, 20) * 5000
    sym = r.choice([s.id for s in state.stocks])
    shares, limit = affordable(state, sym) + r.randint(1, 4), limit_below(state, sym, r)
    sim = Sim(state)
    sim.set("documents", doc.id, viewed=True)
    tid = sim.transfer("deposit", amount)
    oid = sim.order(sym, "buy", shares, limit, "gtc")
    plan = [*p.open_statement(doc.id), *p.transfer("deposit", amount, tid)]
    start = len(plan)
    plan += [*p.search(sym), *p.ticket("buy", shares, oid, limit=limit, tif="gtc")]
    return make("month-end", n, f"On Kestrel, open your statement “{doc.title}”, deposit {shown(amount)} from your linked bank, and "
                f"place a limit order to buy {shares} shares of {name_of(state, sym)} at {shown(limit)}, good till cancelled.",
                plan, sim, order_targets(plan, oid, "open", redo_from=start))  # fmt: skip


TEMPLATES = {
    "fund-and-buy": t_fund_and_buy, "rebalance": t_rebalance, "replace-order": t_replace_order,
    "new-list-buy": t_new_list_buy, "month-end": t_month_end,
}  # fmt: skip
