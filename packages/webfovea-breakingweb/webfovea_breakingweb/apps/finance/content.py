"""The brokerage a seed starts with: 24 stocks with quotes and a 30-day chart, 3 watchlists,
8 positions, 25-30 past orders (4 limit orders still open), 10 transfers, 8 recurring
investments, 12 monthly statements, tax forms and trade confirmations, 16 notifications.

Deterministic by the generator the engine hands over (`rng("app:finance", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly what the
server serves. Company names are fictional and two words or more (an instruction quotes them);
timestamps count back from the fixed epoch.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.finance import market
from webfovea_breakingweb.apps.finance.state import (
    Account,
    Document,
    FinanceState,
    Notification,
    Recurring,
    Stock,
    Transfer,
    Watchlist,
)
from webfovea_breakingweb.engine.determinism import stamp

# symbol, company, sector, a price in dollars to start from
COMPANIES = (
    ("NVLT", "Northvale Lattice", "Semiconductors", 142), ("BRKW", "Brookwater Utilities", "Utilities", 58),
    ("CNDR", "Cinder Robotics", "Industrials", 87), ("HLXA", "Helixa Therapeutics", "Health care", 33),
    ("MRDN", "Meridian Freight", "Transportation", 64), ("OKPN", "Oakpine Foods", "Consumer staples", 41),
    ("QSLV", "Quicksilver Payments", "Financials", 118), ("RDGE", "Ridgeline Energy", "Energy", 76),
    ("SLTW", "Saltwater Apparel", "Consumer discretionary", 22), ("TMBR", "Timber Lane Homes", "Real estate", 49),
    ("VRDA", "Verdant Solar", "Energy", 27), ("WSPR", "Whisper Networks", "Communication", 95),
    ("ALPN", "Alpenglow Software", "Software", 214), ("BYOU", "Bayou Biologics", "Health care", 18),
    ("CRST", "Crestfall Mining", "Materials", 36), ("DLTA", "Delta Harbor Bank", "Financials", 52),
    ("EMBR", "Emberline Motors", "Automotive", 131), ("FRST", "Frostpeak Beverages", "Consumer staples", 45),
    ("GLDN", "Golden Mesa Resorts", "Leisure", 69), ("HRBR", "Harborview Logistics", "Transportation", 83),
    ("IRIS", "Iris Optics Group", "Technology", 57), ("JNPR", "Juniper Crest Labs", "Health care", 104),
    ("KSTL", "Kestrel Aerospace", "Industrials", 176), ("LMNA", "Lumina Media", "Communication", 29),
)  # fmt: skip
WATCHLISTS = ("Tech ideas", "Dividend income", "Energy watch")
BANK = "First Harbor Checking"
NOTES = (
    ("Orders", "Kestrel Orders", "Your order was filled", "Your market order was filled. See Orders for the details."),
    ("Transfers", "Kestrel Transfers", "Your deposit has arrived", "The money you moved from your bank is now buying power."),
    ("Documents", "Kestrel Documents", "Your monthly statement is ready", "Your account statement is ready to view under Documents."),
    ("Account", "Kestrel Support", "New sign-in on a new device", "You signed in from a new browser. If this was you, no action is needed."),
    ("Markets", "Kestrel Markets", "Market holiday reminder", "The markets are closed on Monday for a holiday."),
    ("Account", "Kestrel Support", "Your profile was updated", "Your mailing address was changed as you asked."),
    ("Markets", "Kestrel Markets", "Earnings this week", "Several companies on your watchlists report earnings this week."),
    ("Documents", "Kestrel Documents", "Your tax documents are available", "Your 1099 forms for last year are available under Documents."),
)  # fmt: skip


def _stocks(r: random.Random) -> list[Stock]:
    out = []
    for sym, name, sector, base in COMPANIES:
        price = base * 100 + r.randint(0, 99)
        hist = [price]
        for _ in range(29):  # a walk backwards from today's close
            hist.append(max(100, hist[-1] + r.randint(-price // 40, price // 40)))
        hist.reverse()
        prev = hist[-2]
        out.append(Stock(
            id=sym, name=name, sector=sector, price=price, prev_close=prev,
            day_low=min(price, prev) - r.randint(5, 60), day_high=max(price, prev) + r.randint(5, 60),
            volume=r.randint(200, 9000) * 1000, market_cap=f"{r.randint(2, 180)}.{r.randint(0, 9)}B",
            pe=f"{r.randint(8, 60)}.{r.randint(0, 9)}",
            about=f"{name} is a {sector.lower()} company. Its shares trade as {sym}.", history=hist,
        ))  # fmt: skip
    return out


def _at_close(state: FinanceState, sym: str, day: int) -> None:
    """Quote `sym` at its close `day` days before the last (a past order fills at that price)."""
    s = market.stock(state, sym)
    s.price = s.history[-1 - day]


def _orders(state: FinanceState, r: random.Random) -> None:
    """The account's past: buys that made the positions, a few sells and cancellations, then
    four open limit orders below (buys) or above (sells) the market. A past order fills at a
    close of the 30-day chart (today's quotes are put back afterwards)."""
    today = {s.id: s.price for s in state.stocks}
    owned = r.sample([s.id for s in state.stocks], 8)
    minutes = -60 * 24 * 90
    for sym in owned:
        for _ in range(r.randint(1, 3)):
            minutes += r.randint(600, 4000)
            _at_close(state, sym, r.randint(8, 29))
            market.place(state, sym, "buy", "market", r.randint(3, 40), None, "gfd", stamp(minutes))
    for sym in r.sample(owned, 3):
        minutes += r.randint(600, 4000)
        _at_close(state, sym, r.randint(2, 7))
        market.place(state, sym, "sell", "market", r.randint(1, 3), None, "gfd", stamp(minutes))
    for s in state.stocks:
        s.price = today[s.id]
    for sym in r.sample([s.id for s in state.stocks if s.id not in owned], 3):
        minutes += r.randint(600, 4000)
        price = market.stock(state, sym).price
        o = market.place(
            state, sym, "buy", "limit", r.randint(2, 10), price * 85 // 100, "gtc", stamp(minutes)
        )
        market.cancel(state, o.id)
    for sym in r.sample([s.id for s in state.stocks], 3):
        minutes += r.randint(300, 2000)
        price = market.stock(state, sym).price
        market.place(state, sym, "buy", "limit", r.randint(2, 12), price * r.randint(80, 95) // 100,
                     r.choice(("gfd", "gtc")), stamp(minutes))  # fmt: skip
    sym = r.choice(owned)
    price = market.stock(state, sym).price
    market.place(
        state, sym, "sell", "limit", 1, price * r.randint(106, 125) // 100, "gtc", stamp(minutes + 90)
    )


def _documents(state: FinanceState, r: random.Random) -> None:
    docs: list[Document] = []
    for m in range(12):  # statements for Jan..Dec 2024, the newest unviewed
        period = f"2024-{m + 1:02d}"
        opening, closing = r.randint(30000, 60000) * 100, r.randint(30000, 60000) * 100
        docs.append(Document(id="", kind="statement", title=f"Account statement {period}", period=period,
                             created=stamp(-60 * 24 * (340 - 30 * m)),
                             lines=[f"Opening value {market.shown(opening)}", f"Closing value {market.shown(closing)}",
                                    f"Dividends {market.shown(r.randint(100, 9000))}"], viewed=m < 6))  # fmt: skip
    for form in ("1099-B", "1099-DIV", "1099-INT"):
        docs.append(Document(id="", kind="tax", title=f"Form {form} for 2023", period="2023", created=stamp(-60 * 24 * 320),
                             lines=[f"Tax form {form}, tax year 2023, account {state.accounts[0].number}."]))  # fmt: skip
    for o in [o for o in state.orders if o.status == "filled"][-6:]:
        day = o.created[:10]
        docs.append(Document(id="", kind="confirm", title=f"Trade confirmation {o.id}", period=day, created=o.created,
                             lines=[f"{o.side.title()} {o.shares} {o.symbol} at {market.shown(o.fill_price or 0)}"]))  # fmt: skip
    docs.sort(key=lambda d: (d.created, d.title))
    for i, d in enumerate(docs, start=1):
        d.id = f"D-{i:04d}"
    state.documents = docs


def build(r: random.Random, seed: int) -> FinanceState:
    state = FinanceState()
    state.accounts.append(Account(id="ACC-1", holder="Robin Ellery", number=f"{r.randint(1000, 9999)}",
                                  buying_power=r.randint(1100, 1400) * 10000, bank=BANK, bank_last4=f"{r.randint(1000, 9999)}"))  # fmt: skip
    state.stocks = _stocks(r)
    symbols = [s.id for s in state.stocks]
    for i, name in enumerate(WATCHLISTS, start=1):
        state.watchlists.append(Watchlist(id=f"W-{i:04d}", name=name, symbols=r.sample(symbols, 5)))
    _orders(state, r)
    bank = f"{BANK} ••{state.accounts[0].bank_last4}"
    for i in range(1, 11):
        state.transfers.append(Transfer(id=f"TR-{i:04d}", direction="withdraw" if i % 4 == 0 else "deposit",
                                        amount=r.randint(5, 60) * 5000, bank=bank, created=stamp(-60 * 24 * (100 - 9 * i))))  # fmt: skip
    for i, sym in enumerate(r.sample(symbols, 8), start=1):
        s = market.stock(state, sym)
        state.recurring.append(Recurring(id=f"R-{i:04d}", symbol=sym, name=s.name, amount=r.randint(2, 40) * 5,
                                         frequency=r.choice(("weekly", "biweekly", "monthly")),
                                         next_date=stamp(60 * 24 * r.randint(1, 28))[:10], status="paused" if i == 8 else "active"))  # fmt: skip
    _documents(state, r)
    for i in range(1, 17):
        category, sender, title, body = NOTES[(i * 5) % len(NOTES)]
        state.notifications.append(Notification(id=f"N-{i:04d}", sender=sender, category=category,  # type: ignore[arg-type]
                                                title=f"{title} ({300 + i})", body=body, created=stamp(-(17 - i) * 300),
                                                read=r.random() < 0.4))  # fmt: skip
    state.counter = len(state.orders) + len(state.transfers) + len(state.documents)
    state.clock = 0
    # The legend seed/split_information shows when the pages name stocks by ticker only.
    state.units = [{"id": s.id, "name": s.name} for s in state.stocks]
    return state
