"""The finance site's typed state (a Robinhood-like brokerage, not a bank): the brokerage
account and its linked bank, the stocks it quotes, your watchlists, positions, orders,
transfers, recurring investments, statements and documents, and the account's notifications.

Money is in integer cents (a recurring investment's amount in whole dollars, as its form asks),
shares in whole shares. Every list holds records with an `id`, so the canonical diff
(engine/diff.py) sees each order, position and transfer as an entity; a position's id is its
symbol (one position per stock), so a buy changes one record or creates it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit"]
OrderStatus = Literal["filled", "open", "cancelled"]
TimeInForce = Literal["gfd", "gtc"]  # good for day, good till cancelled
Direction = Literal["deposit", "withdraw"]
DocKind = Literal["statement", "tax", "confirm"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Account(_Strict):
    id: str  # ACC-1
    holder: str
    number: str  # the last four digits shown
    buying_power: int = Field(ge=0)  # cents: settled cash less what open buy orders hold
    bank: str  # the linked bank account transfers go to and come from
    bank_last4: str


class Stock(_Strict):
    id: str  # the ticker symbol
    name: str
    sector: str
    price: int = Field(gt=0)  # cents, the last trade
    prev_close: int = Field(gt=0)
    day_low: int
    day_high: int
    volume: int
    market_cap: str
    pe: str
    about: str
    history: list[int] = Field(default_factory=list)  # closing prices, oldest first (the chart)


class Watchlist(_Strict):
    id: str  # W-0001
    name: str = Field(min_length=1, max_length=40)
    symbols: list[str] = Field(default_factory=list)


class Position(_Strict):
    id: str  # the symbol
    shares: int = Field(ge=0)
    avg_cost: int = Field(gt=0)  # cents a share


class Order(_Strict):
    id: str  # O-0001
    symbol: str
    name: str  # the company, as the order's detail shows it
    side: Side
    type: OrderType
    shares: int = Field(gt=0)
    limit_price: int | None = None  # cents (limit orders)
    time_in_force: TimeInForce = "gfd"
    status: OrderStatus
    fill_price: int | None = None  # cents a share, once filled
    created: str


class Transfer(_Strict):
    id: str  # TR-0001
    direction: Direction
    amount: int = Field(gt=0)  # cents
    bank: str
    status: Literal["completed", "pending"] = "completed"
    created: str


class Recurring(_Strict):
    id: str  # R-0001
    symbol: str
    name: str
    amount: int = Field(gt=0, le=10000)  # whole dollars a purchase
    frequency: Literal["weekly", "biweekly", "monthly"]
    next_date: str
    status: Literal["active", "paused"] = "active"


class Document(_Strict):
    id: str  # D-0001
    kind: DocKind
    title: str
    period: str  # "2024-11" (a month) or "2023" (a tax year) or a trade date
    created: str
    lines: list[str] = Field(default_factory=list)  # what the document says
    viewed: bool = False


class Notification(_Strict):
    id: str  # N-0001
    sender: str
    category: Literal["Orders", "Transfers", "Documents", "Account", "Markets"]
    title: str = Field(min_length=1, max_length=140)
    body: str = Field(min_length=1, max_length=4000)
    created: str
    read: bool = False


class FinanceState(EnvState):
    accounts: list[Account] = Field(default_factory=list)
    stocks: list[Stock] = Field(default_factory=list)
    watchlists: list[Watchlist] = Field(default_factory=list)
    positions: list[Position] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    transfers: list[Transfer] = Field(default_factory=list)
    recurring: list[Recurring] = Field(default_factory=list)
    documents: list[Document] = Field(default_factory=list)
    notifications: list[Notification] = Field(default_factory=list)
