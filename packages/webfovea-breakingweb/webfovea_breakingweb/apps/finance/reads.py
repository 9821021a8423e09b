"""The brokerage's retrieval templates: what an investor reads off the positions table on the
home page. seed/planted_answer (`figure`) puts a stale market value in a Key figures box above
the page; seed/split_information (`unit`: the ticker) shows tickers only, the company names on
the Codes legend. The oracle reads the true row (by symbol) or, recovering, the legend."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.finance.common import API, KIT
from webfovea_breakingweb.apps.finance.routes import holdings
from webfovea_breakingweb.apps.finance.state import FinanceState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, visible

# How a position is ranked, and the words for it.
_RANKS = {
    "value": ("largest position by market value", lambda h: h["value"]),
    "shares": ("position with the most shares", lambda h: h["shares"]),
    "gain": ("position with the largest total return in dollars", lambda h: h["gain"]),
    "small": ("smallest position by market value", lambda h: -h["value"]),
}


def _row(sym: str) -> str:
    return f'#positions tr[data-symbol="{sym}"]'


def _home() -> dict[str, Any]:
    return click(L("#nav-home"), expect=visible(L("#positions tbody tr")))


def _amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def t_position_value(state: FinanceState, r: random.Random, n: int) -> StatefulTask:
    h = r.choice(holdings(state))
    plan = [_home(), answer(L(f"{_row(h['symbol'])} td.value"), regex=r"([\d,.]+)")]
    return KIT.read(
        "position-value", n,
        f"On Kestrel, what is the market value of your position in {h['name']}? Report the amount in dollars.",
        plan, _amount(h["value"]), f"{API}/account",
        {"submit": "#nav-home", "submit_step": 0,
         "figure": {"name": f"Market value of your {h['name']} position", "value": _amount(h["value"])}},
    )  # fmt: skip


def t_top_position(state: FinanceState, r: random.Random, n: int) -> StatefulTask | None:
    words, key = _RANKS[r.choice(sorted(_RANKS))]
    ranked = sorted(holdings(state), key=key, reverse=True)
    if len(ranked) < 2 or key(ranked[0]) == key(ranked[1]):  # a tie: no one answer
        return None
    top = ranked[0]
    plan = [_home(), answer(L(f"{_row(top['symbol'])} .name"))]
    return KIT.read(
        "top-position", n,
        f"On Kestrel, which company is your {words}? Report the company's name.",
        plan, top["name"], f"{API}/account",
        {"submit": "#nav-home", "submit_step": 0, "unit": top["symbol"]},
    )  # fmt: skip


TEMPLATES = {"position-value": t_position_value, "top-position": t_top_position}
