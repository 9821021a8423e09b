"""Online banking (Northbank): accounts, statements with date, text and category filters,
payees, transfers with a review-then-confirm step, standing orders. Its own state, API, page
and task generator (docs/breakingweb.md, "The bank")."""

from __future__ import annotations

from webfovea_breakingweb.apps.bank import state_tasks
from webfovea_breakingweb.apps.bank.content import build
from webfovea_breakingweb.apps.bank.page import page
from webfovea_breakingweb.apps.bank.routes import routes
from webfovea_breakingweb.apps.bank.state import BankState
from webfovea_breakingweb.apps.bank.tasks import PER_TEMPLATE, RETRIEVAL
from webfovea_breakingweb.engine.generate import instantiate
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask


def tasks(seed: int) -> list[StatefulTask]:
    return instantiate(APP, seed, {**RETRIEVAL, **state_tasks.TEMPLATES}, PER_TEMPLATE)


APP = AppSpec(
    name="bank",
    title="Northbank online banking",
    path="/app/bank",
    lead="Accounts, statements, payees, transfers and standing orders.",
    summary="statements with date filters; payees; transfers with a confirmation step; standing orders",
    noun="payment",
    state_model=BankState,
    build=build,
    routes=routes,
    page=page,
    tasks=tasks,
)
