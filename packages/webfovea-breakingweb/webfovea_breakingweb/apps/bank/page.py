"""The bank's own page: a banking header and nav, the status area, and bank.js."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.bank.content import CATEGORIES
from webfovea_breakingweb.engine.page import asset, document
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session
from webfovea_proving_ground.sites.layout import js_data

SORTS = (
    ("date-desc", "Newest first"),
    ("amount-asc", "Largest expense first"),
    ("amount-desc", "Largest income first"),
)
STATEMENT_CATEGORIES = (*CATEGORIES, "Salary", "Rent", "Savings", "Transfer")
CSS = """
body { background: #eef2f7; }
header.bank { background: #0b3d5c; color: #fff; display: flex; align-items: center; gap: 28px; padding: 14px 28px; }
header.bank .brand { font-size: 22px; font-weight: bold; }
#bank-nav a { color: #bfe3ff; margin-right: 18px; text-decoration: none; font-size: 16px; }
#bank-nav a[aria-current=page] { color: #fff; text-decoration: underline; }
main { padding: 18px 28px; max-width: 1300px; }
table.data { border-collapse: collapse; background: #fff; margin: 8px 0; }
table.data th, table.data td { border: 1px solid #cfd8e3; padding: 6px 10px; text-align: left; }
table.data th { background: #dde7f1; }
td.amount, td.balance { text-align: right; font-variant-numeric: tabular-nums; }
button { background: #0b6aa2; color: #fff; border: 0; border-radius: 4px; padding: 8px 16px; }
button.secondary { background: #5d6d7e; }
dl { display: grid; grid-template-columns: 140px auto; gap: 6px; background: #fff; padding: 12px; max-width: 620px; }
dt { font-weight: bold; }
"""


def page(app: AppSpec, session: Session | None, client_plan: dict[str, Any] | None) -> str:
    data = {"categories": list(STATEMENT_CATEGORIES), "sorts": [list(s) for s in SORTS]}
    body = """<header class="bank"><div class="brand">Northbank online</div>
<nav id="bank-nav" aria-label="Banking"><a href="#/accounts" id="nav-accounts" data-view="accounts">Accounts</a>
<a href="#/statement" id="nav-statement" data-view="statement">Statements</a>
<a href="#/transfer" id="nav-transfer" data-view="transfer">Transfer</a>
<a href="#/payees" id="nav-payees" data-view="payees">Payees</a>
<a href="#/standing" id="nav-standing" data-view="standing">Standing orders</a></nav></header>
<main><div id="wf-status"></div><div id="app"></div></main>"""
    script = f"const BANK = {js_data(data)};\n{asset(__file__, 'bank.js')}"
    return document(app, client_plan, body, css=CSS, script=script)
