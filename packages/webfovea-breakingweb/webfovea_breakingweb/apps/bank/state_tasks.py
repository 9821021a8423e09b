"""The bank's state-task templates (obligations over payees, transfers, transactions,
accounts and standing orders): add or delete a payee, transfer with confirmation, a new payee
and a transfer, new standing order, change or cancel one, pay again what the statement shows
and set up a standing order, and a whole new payee set-up."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.bank import plans
from webfovea_breakingweb.apps.bank.content import iban
from webfovea_breakingweb.apps.bank.state import BankState
from webfovea_breakingweb.apps.bank.tasks import API, Make, task
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, answer, click, fill, text_has, value_is

NEW_PAYEES = (
    "Mira Holm",
    "Jonas Falk",
    "Oak Dental Clinic",
    "Riverside School",
    "Tove Lind",
    "Bright Energy",
    "Lena Strand",
    "Valley Vets",
)
REFERENCES = (
    "Invoice 2025-014",
    "Dinner split",
    "Deposit",
    "Birthday gift",
    "Loan repayment",
    "Tickets",
    "Invoice 88213",
    "Rent share",
)
STARTS = ("2025-02-01", "2025-02-15", "2025-03-01", "2025-01-31", "2025-02-07")


def _obl_transfer(state: BankState, payee_id: str, payee: str, cents: int, ref: str) -> list[dict[str, Any]]:
    acc = next(a for a in state.accounts if a.id == "ACC-1")
    return [
        {"entity": "transfers", "op": "create", "count": 1,
         "fields": {"account": "ACC-1", "payee": payee_id, "amount": cents, "reference": ref, "status": "sent"}},
        {"entity": "transactions", "op": "create", "count": 1,
         "fields": {"account": "ACC-1", "counterparty": payee, "amount": -cents, "category": "Transfer"}},
        {"entity": "accounts", "op": "update", "id": "ACC-1", "fields": {"balance": acc.balance - cents}},
    ]  # fmt: skip


def _obl_standing(payee_id: str, cents: int, freq: str, start: str, ref: str) -> dict[str, Any]:
    return {"entity": "standing", "op": "create", "count": 1,
            "fields": {"account": "ACC-1", "payee": payee_id, "amount": cents, "frequency": freq, "start": start,
                       "reference": ref, "status": "active"}}  # fmt: skip


def _standing_targets(
    plan: list[dict[str, Any]], so_id: str, cents: int, drift: bool = True
) -> dict[str, Any]:
    """Targets of a task whose last write saves a new standing order. `drift` only when that is
    the task's first write carrying an amount (save drift alters the first one)."""
    route = ["POST", f"{API}/standing"]
    out = {
        "main": route, "write": route, "list": ["GET", f"{API}/standing"], "submit": "#so-save",
        "submit_step": len(plan) - 2, "redo_from": len(plan) - 8, "form": True, "verify_path": "/app/bank#/standing",
        "readback": text_has(L(f'#standing tr[data-id="{so_id}"] td.amount'), plans.shown(cents)),
    }  # fmt: skip
    if drift:
        out["drift"] = {"field": "amount", "kind": "truncate", "value": plans.euros(cents), "input": "#so-amount",
                        "edit_row": f'#standing tr[data-id="{so_id}"] .edit'}  # fmt: skip
    return out


def _transfer_targets(plan: list[dict[str, Any]], tr_id: str) -> dict[str, Any]:
    route = ["POST", f"{API}/transfers"]
    return {
        "main": route, "write": route, "list": ["GET", f"{API}/transfers"], "submit": "#tr-confirm",
        "submit_step": len(plan) - 2, "redo_from": len(plan) - 8, "form": True, "verify_path": "/app/bank#/accounts",
        "readback": text_has(L(f'#transfers tr[data-id="{tr_id}"] td.status'), "sent"),
    }  # fmt: skip


def t_add_payee(state: BankState, r: Any, n: int) -> StatefulTask:
    name, code = r.choice(NEW_PAYEES), iban(r)
    plan = [*plans.add_payee(name, code), answer(L("#toast .ref"))]
    route = ["POST", f"{API}/payees"]
    return task(f"bank-addpayee-{n:02d}", f"In your Northbank online banking, add the payee {name} with the IBAN {code}. Report the payee reference.", plan,
                failure_classes=["fill"], obligations=[{"entity": "payees", "op": "create", "count": 1, "fields": {"name": name, "iban": code}}],
                targets={"main": route, "write": route, "list": ["GET", f"{API}/payees"], "submit": "#py-add", "submit_step": len(plan) - 2,
                         "form": True, "verify_path": "/app/bank#/payees", "readback": text_has(L("#payees"), code)})  # fmt: skip


def t_delete_payee(state: BankState, r: Any, n: int) -> StatefulTask:
    busy = {o.payee for o in state.standing if o.status == "active"}
    p = r.choice([p for p in state.payees if p.id not in busy])
    plan = [click(L("#nav-payees"), expect=text_has(L("#payees"), p.name)),
            click(L(f'#payees tr[data-id="{p.id}"] .delete'), expect=text_has(L("#toast"), "deleted")),
            answer(L("#toast .msg"), regex=r"Payee (.+) deleted")]  # fmt: skip
    route = ["DELETE", f"{API}/payees/{p.id}"]
    return task(f"bank-delpayee-{n:02d}", f"In your Northbank online banking, delete the payee {p.name} and nothing else. Report the name you deleted.", plan,
                obligations=[{"entity": "payees", "op": "delete", "id": p.id}],
                targets={"main": route, "write": route, "list": ["GET", f"{API}/payees"], "submit": ".delete", "submit_step": 1})  # fmt: skip


def t_transfer(state: BankState, r: Any, n: int) -> StatefulTask:
    p = r.choice(state.payees)
    cents, ref = r.randint(20, 400) * 100 + r.choice((0, 50, 99)), r.choice(REFERENCES)
    tr = next_id(state.transfers, "TR-")
    plan = [*plans.transfer(p.name, p.id, cents, ref, tr), answer(L("#toast .ref"))]
    return task(f"bank-transfer-{n:02d}", f"In your Northbank online banking, transfer €{plans.euros(cents)} from your Everyday account to {p.name} with the reference “{ref}”, and confirm it. Report the transfer reference.",
                plan, failure_classes=["select", "fill"], obligations=_obl_transfer(state, p.id, p.name, cents, ref), targets=_transfer_targets(plan, tr))  # fmt: skip


def t_new_payee_transfer(state: BankState, r: Any, n: int) -> StatefulTask:
    name, code = r.choice(NEW_PAYEES), iban(r)
    cents, ref = r.randint(20, 300) * 100, r.choice(REFERENCES)
    pid, tr = next_id(state.payees, "PY-"), next_id(state.transfers, "TR-")
    plan = [
        *plans.add_payee(name, code),
        *plans.transfer(name, pid, cents, ref, tr),
        answer(L("#toast .ref")),
    ]
    obl = [
        {"entity": "payees", "op": "create", "count": 1, "fields": {"name": name, "iban": code}},
        *_obl_transfer(state, pid, name, cents, ref),
    ]
    return task(f"bank-payeetransfer-{n:02d}", f"In your Northbank online banking, add {name} (IBAN {code}) as a payee, then transfer €{plans.euros(cents)} to them from your Everyday account with the reference “{ref}”. Report the transfer reference.",
                plan, failure_classes=["select", "fill"], obligations=obl, targets=_transfer_targets(plan, tr))  # fmt: skip


def t_standing_new(state: BankState, r: Any, n: int) -> StatefulTask:
    p = r.choice(state.payees)
    cents, freq, start, ref = (
        r.randint(10, 200) * 100,
        r.choice(("monthly", "weekly")),
        r.choice(STARTS),
        r.choice(REFERENCES),
    )
    so = next_id(state.standing, "SO-")
    plan = [*plans.standing(p.name, p.id, cents, freq, start, ref, so), answer(L("#toast .ref"))]
    return task(f"bank-standing-{n:02d}", f"In your Northbank online banking, set up a {freq} standing order of €{plans.euros(cents)} from your Everyday account to {p.name}, first payment on {start}, reference “{ref}”. Report its reference.",
                plan, failure_classes=["select", "fill", "date_input"], obligations=[_obl_standing(p.id, cents, freq, start, ref)], targets=_standing_targets(plan, so, cents))  # fmt: skip


def t_standing_amount(state: BankState, r: Any, n: int) -> StatefulTask:
    o = r.choice([o for o in state.standing if o.status == "active"])
    cents = o.amount + r.randint(1, 20) * 100
    payee = next(p.name for p in state.payees if p.id == o.payee)
    row = f'#standing tr[data-id="{o.id}"]'
    plan = [click(L("#nav-standing"), expect=text_has(L("#standing"), o.id)),
            click(L(f"{row} .edit"), expect=value_is(L("#so-amount"), plans.euros(o.amount))),
            fill(L("#so-amount"), plans.euros(cents), expect=value_is(L("#so-amount"), plans.euros(cents))),
            click(L("#so-save"), expect=text_has(L(f"{row} td.amount"), plans.shown(cents))),
            answer(L("#toast .ref"))]  # fmt: skip
    route = ["PUT", f"{API}/standing/{o.id}"]
    return task(f"bank-standingamount-{n:02d}", f"In your Northbank online banking, change the amount of your standing order to {payee} ({o.id}) to €{plans.euros(cents)}; change nothing else. Report the standing order's reference.",
                plan, failure_classes=["fill"], obligations=[{"entity": "standing", "op": "update", "id": o.id, "fields": {"amount": cents}}],
                targets={"main": route, "write": route, "list": ["GET", f"{API}/standing"], "submit": "#so-save", "submit_step": 3, "form": True,
                         "verify_path": "/app/bank#/standing", "readback": text_has(L(f"{row} td.amount"), plans.shown(cents)),
                         "drift": {"field": "amount", "kind": "truncate", "value": plans.euros(cents), "input": "#so-amount"}})  # fmt: skip


def t_standing_cancel(state: BankState, r: Any, n: int) -> StatefulTask:
    o = r.choice([o for o in state.standing if o.status == "active"])
    payee = next(p.name for p in state.payees if p.id == o.payee)
    row = f'#standing tr[data-id="{o.id}"]'
    plan = [click(L("#nav-standing"), expect=text_has(L("#standing"), o.id)),
            click(L(f"{row} .cancel"), expect=text_has(L(f"{row} td.status"), "cancelled")),
            answer(L(f"{row} td.id"))]  # fmt: skip
    route = ["POST", f"{API}/standing/{o.id}/cancel"]
    return task(f"bank-standingcancel-{n:02d}", f"In your Northbank online banking, cancel your standing order to {payee} and nothing else. Report its reference.",
                plan, obligations=[{"entity": "standing", "op": "update", "id": o.id, "fields": {"status": "cancelled"}}],
                targets={"main": route, "write": route, "list": ["GET", f"{API}/standing"], "submit": ".cancel", "submit_step": 1,
                         "verify_path": "/app/bank#/standing", "readback": text_has(L(f"{row} td.status"), "cancelled")})  # fmt: skip


def t_pay_again(state: BankState, r: Any, n: int) -> StatefulTask | None:
    p = r.choice(state.payees)
    paid = sorted(
        (t for t in state.transactions if t.counterparty == p.name and t.amount < 0),
        key=lambda t: (t.date, t.id),
    )
    if not paid or (len(paid) > 1 and paid[-1].date == paid[-2].date):
        return None
    cents, ref, ref2 = -paid[-1].amount, r.choice(REFERENCES), r.choice(REFERENCES)
    freq, start = r.choice(("monthly", "weekly")), r.choice(STARTS)
    tr, so = next_id(state.transfers, "TR-"), next_id(state.standing, "SO-")
    plan = [*plans.statement(q=p.name), *plans.transfer(p.name, p.id, cents, ref, tr),
            *plans.standing(p.name, p.id, cents, freq, start, ref2, so), answer(L("#toast .ref"))]  # fmt: skip
    obl = [*_obl_transfer(state, p.id, p.name, cents, ref), _obl_standing(p.id, cents, freq, start, ref2)]
    return task(f"bank-payagain-{n:02d}", f"In your Northbank online banking, look up your most recent payment to {p.name} in the Everyday account's statement. Transfer the same amount to {p.name} again (reference “{ref}”), then set up a {freq} standing order of that amount to them, first payment on {start}, reference “{ref2}”. Report the standing order's reference.",
                plan, failure_classes=["select", "fill", "date_input"], obligations=obl, targets=_standing_targets(plan, so, cents, drift=False))  # fmt: skip


def t_setup(state: BankState, r: Any, n: int) -> StatefulTask:
    name, code = r.choice(NEW_PAYEES), iban(r)
    cents, monthly, ref, start = (
        r.randint(50, 300) * 100,
        r.randint(10, 80) * 100,
        r.choice(REFERENCES),
        r.choice(STARTS),
    )
    pid, tr, so = (
        next_id(state.payees, "PY-"),
        next_id(state.transfers, "TR-"),
        next_id(state.standing, "SO-"),
    )
    plan = [*plans.add_payee(name, code), *plans.transfer(name, pid, cents, ref, tr),
            *plans.standing(name, pid, monthly, "monthly", start, ref, so), answer(L("#toast .ref"))]  # fmt: skip
    obl = [{"entity": "payees", "op": "create", "count": 1, "fields": {"name": name, "iban": code}},
           *_obl_transfer(state, pid, name, cents, ref), _obl_standing(pid, monthly, "monthly", start, ref)]  # fmt: skip
    return task(f"bank-setup-{n:02d}", f"In your Northbank online banking, add {name} (IBAN {code}) as a payee, send them €{plans.euros(cents)} now from your Everyday account, and set up a monthly standing order of €{plans.euros(monthly)} to them from {start}; use the reference “{ref}” for both. Report the standing order's reference.",
                plan, failure_classes=["select", "fill", "date_input"], obligations=obl, targets=_standing_targets(plan, so, monthly, drift=False))  # fmt: skip


TEMPLATES: dict[str, Make] = {
    "addpayee": t_add_payee,
    "delpayee": t_delete_payee,
    "transfer": t_transfer,
    "payeetransfer": t_new_payee_transfer,
    "standing": t_standing_new,
    "standingamount": t_standing_amount,
    "standingcancel": t_standing_cancel,
    "payagain": t_pay_again,
    "setup": t_setup,
}
