"""What the finance site's task templates share: a simulation of a person's writes on a copy of
the seeded state (through market.py, the rules the API applies), the obligations read off its
canonical diff, and `make`, which builds a `StatefulTask` with its five-scale tier and the
targets the families aim at."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.finance import market
from webfovea_breakingweb.apps.finance.state import FinanceState, Transfer, Watchlist
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.diff import canonical_diff
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here
from webfovea_proving_ground.plan import Step

API = "/api/env/finance"
PAGE = "/env/finance"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
# Fields a create obligation leaves out: the id is the server's, the time the session clock's.
# A position's id is its symbol (the stock it holds), so a new position names it.
UNNAMED = ("id", "created")
NAMED_IDS = ("positions",)


# The state's lists a write can change (the quotes never do), and the dumps of the seeded states
# the simulations start from (kept with the state itself, so an id is never reused).
WRITABLE = (
    "accounts",
    "watchlists",
    "positions",
    "orders",
    "transfers",
    "recurring",
    "documents",
    "notifications",
)


KIT = kit.TaskKit("finance", PAGE, SIGN_IN)
write_targets = KIT.write_targets
_DUMPS: dict[int, tuple[FinanceState, dict[str, Any]]] = {}


def _dump(state: FinanceState) -> dict[str, Any]:
    return state.model_dump(mode="json", include=set(WRITABLE))


def _before(state: FinanceState) -> dict[str, Any]:
    held = _DUMPS.get(id(state))
    if held is None or held[0] is not state:
        held = _DUMPS[id(state)] = (state, _dump(state))
    return held[1]


class Sim:
    """A person's writes on a copy of the seeded state, in the order the plan makes them. Only
    the lists a write changes are copied, record by record (a deep copy of the whole brokerage
    per task would dominate the generator's time)."""

    def __init__(self, state: FinanceState) -> None:
        self.before = _before(state)
        # Records are copied shallow (their fields are values) but a watchlist's list of symbols.
        copies = {
            name: [r.model_copy(deep=name == "watchlists") for r in getattr(state, name)] for name in WRITABLE
        }
        self.state = state.model_copy(update=copies)

    def order(self, sym: str, side: str, shares: int, limit: int | None = None, tif: str = "gfd") -> str:
        kind = "market" if limit is None else "limit"
        return market.place(self.state, sym, side, kind, shares, limit, tif, "").id

    def cancel(self, oid: str) -> None:
        market.cancel(self.state, oid)

    def transfer(self, direction: str, amount: int) -> str:
        market.transfer_check(self.state, direction, amount)
        acc = self.state.accounts[0]
        acc.buying_power += amount if direction == "deposit" else -amount
        tid = next_id(self.state.transfers, "TR-")
        self.state.transfers.append(Transfer(id=tid, direction=direction, amount=amount,  # type: ignore[arg-type]
                                             bank=f"{acc.bank} ••{acc.bank_last4}", created=""))  # fmt: skip
        return tid

    def new_list(self, name: str) -> str:
        wid = next_id(self.state.watchlists, "W-")
        self.state.watchlists.append(Watchlist(id=wid, name=name))
        return wid

    def add(self, wid: str, sym: str) -> None:
        w = next(x for x in self.state.watchlists if x.id == wid)
        if sym not in w.symbols:
            w.symbols.append(sym)

    def set(self, entity: str, rid: str, **fields: Any) -> None:
        rec = next(x for x in getattr(self.state, entity) if x.id == rid)
        for k, v in fields.items():
            setattr(rec, k, v)

    def obligations(self) -> list[dict[str, Any]]:
        """Every change the writes make: one update per changed record (its final values), one
        create per new record (its fields but id and time), one delete per removed record."""
        out: list[dict[str, Any]] = []
        updates: dict[tuple[str, str], dict[str, Any]] = {}
        for c in canonical_diff(self.before, _dump(self.state)):
            if c["entity"] == "_settings":
                continue
            if c["op"] == "create":
                drop = UNNAMED[1:] if c["entity"] in NAMED_IDS else UNNAMED
                fields = {k: v for k, v in c["after"].items() if k not in drop}
                out.append({"entity": c["entity"], "op": "create", "count": 1, "fields": fields})
            elif c["op"] == "delete":
                out.append({"entity": c["entity"], "op": "delete", "id": c["id"]})
            else:
                updates.setdefault((c["entity"], c["id"]), {})[c["field"]] = c["after"]
        upd = [{"entity": e, "op": "update", "id": rid, "fields": f} for (e, rid), f in updates.items()]
        return upd + out


def make(
    template: str, n: int, instruction: str, plan: list[Step], sim: Sim, targets: dict[str, Any],
) -> StatefulTask:  # fmt: skip
    """One instance `n` of `template` (id `finance-<template>-NN`): a state task ending in "done"."""
    return kit.state_task("finance", template, n, instruction + SIGN_IN, plan, sim.obligations(), targets)


def name_of(state: FinanceState, sym: str) -> str:
    """'Northvale Lattice (NVLT)': how an instruction names a stock."""
    return f"{market.stock(state, sym).name} ({sym})"
