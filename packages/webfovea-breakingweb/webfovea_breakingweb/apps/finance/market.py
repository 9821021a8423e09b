"""The brokerage's trading rules, written once: the API applies them to a session's state and
the task generator applies them to a copy of the seeded state to know what a task's orders
must leave behind (the obligations), so the truth and the site cannot drift apart.

A market order fills at once at the last price. A limit order fills at once at the last price
when it is marketable (a buy at or above it, a sell at or below it), else it rests open: an open
buy holds `shares × limit` of buying power until it is cancelled; an open sell reserves its
shares. A position's average cost is the cost of its shares, rounded down to the cent.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from webfovea_breakingweb.apps.finance.state import FinanceState, Order, Position, Stock
from webfovea_breakingweb.engine import store as st

MAX_TRANSFER = 5_000_000  # cents: the most one transfer moves ($50,000)


def cents(text: str | int | float, what: str) -> int:
    """'41.20' or 41.2 -> 4120; a clear error for anything else or more than two decimals."""
    try:
        value = Decimal(str(text).replace(",", "").replace("$", "").strip())
    except InvalidOperation:
        raise st.Rejected(f"{what}: {text!r} is not an amount") from None
    if value <= 0 or value != value.quantize(Decimal("0.01")):
        raise st.Rejected(f"{what}: enter a positive amount with at most two decimals")
    return int(value * 100)


def dollars(amount: int) -> str:
    """4120 -> '41.20' (what a person types)."""
    return f"{amount // 100}.{amount % 100:02d}"


def shown(amount: int) -> str:
    """4120 -> '$41.20', 123456 -> '$1,234.56' (what the page shows)."""
    return f"${amount // 100:,}.{amount % 100:02d}"


def stock(state: FinanceState, symbol: str) -> Stock:
    return st.find(state.stocks, symbol.upper(), "stock")


def position(state: FinanceState, symbol: str) -> Position | None:
    return next((p for p in state.positions if p.id == symbol), None)


def reserved(state: FinanceState, symbol: str) -> int:
    """Shares open sell orders of `symbol` hold."""
    return sum(
        o.shares for o in state.orders if o.symbol == symbol and o.side == "sell" and o.status == "open"
    )


def held(state: FinanceState) -> int:
    """Buying power open buy orders hold (cents)."""
    return sum(
        o.shares * (o.limit_price or 0) for o in state.orders if o.side == "buy" and o.status == "open"
    )


def _fill(state: FinanceState, side: str, symbol: str, shares: int, price: int) -> None:
    acc = state.accounts[0]
    pos = position(state, symbol)
    if side == "buy":
        acc.buying_power -= shares * price
        if pos is None:
            state.positions.append(Position(id=symbol, shares=shares, avg_cost=price))
        else:
            pos.avg_cost = (pos.shares * pos.avg_cost + shares * price) // (pos.shares + shares)
            pos.shares += shares
        return
    acc.buying_power += shares * price
    assert pos is not None
    pos.shares -= shares
    if pos.shares == 0:
        state.positions.remove(pos)


def place(
    state: FinanceState, symbol: str, side: str, kind: str, shares: int,
    limit: int | None, tif: str, created: str,
) -> Order:  # fmt: skip
    """Place one order on `state` (changed in place); a Rejected when the account cannot."""
    s = stock(state, symbol)
    if kind == "limit" and limit is None:
        raise st.Rejected("limit_price: a limit order needs a limit price")
    if kind == "market":
        limit, tif = None, "gfd"
    acc = state.accounts[0]
    marketable = kind == "market" or (
        limit is not None and (limit >= s.price if side == "buy" else limit <= s.price)
    )
    if side == "buy":
        need = shares * (s.price if marketable else limit or 0)
        if need > acc.buying_power:
            raise st.Rejected(
                f"Not enough buying power: this order needs {shown(need)}, you have {shown(acc.buying_power)}."
            )
    else:
        pos = position(state, s.id)
        free = (pos.shares if pos else 0) - reserved(state, s.id)
        if shares > free:
            raise st.Rejected(f"You can sell at most {free} shares of {s.id}.")
    order = Order(id=st.next_id(state.orders, "O-"), symbol=s.id, name=s.name, side=side, type=kind,  # type: ignore[arg-type]
                  shares=shares, limit_price=limit, time_in_force=tif, status="filled" if marketable else "open",  # type: ignore[arg-type]
                  fill_price=s.price if marketable else None, created=created)  # fmt: skip
    if marketable:
        _fill(state, side, s.id, shares, s.price)
    elif side == "buy":
        acc.buying_power -= shares * (limit or 0)
    state.orders.append(order)
    return order


def cancel(state: FinanceState, oid: str) -> Order:
    order = st.find(state.orders, oid, "order")
    if order.status != "open":
        raise st.Rejected(f"Order {oid} is {order.status}: only an open order can be cancelled.")
    order.status = "cancelled"
    if order.side == "buy":
        state.accounts[0].buying_power += order.shares * (order.limit_price or 0)
    return order


def transfer_check(state: FinanceState, direction: str, amount: int) -> None:
    if amount > MAX_TRANSFER:
        raise st.Rejected(f"amount: at most {shown(MAX_TRANSFER)} a transfer")
    if direction == "withdraw" and amount > state.accounts[0].buying_power:
        raise st.Rejected(f"You can withdraw at most {shown(state.accounts[0].buying_power)}.")


def portfolio_value(state: FinanceState) -> int:
    prices = {s.id: s.price for s in state.stocks}
    return (
        state.accounts[0].buying_power + held(state) + sum(p.shares * prices[p.id] for p in state.positions)
    )
