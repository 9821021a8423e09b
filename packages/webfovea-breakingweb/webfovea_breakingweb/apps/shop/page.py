"""The shop's own page: a storefront header and nav, the status area, and shop.js."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.shop.content import BRANDS, CATEGORIES
from webfovea_breakingweb.apps.shop.state import REASONS
from webfovea_breakingweb.engine.page import asset, document
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session
from webfovea_proving_ground.sites.layout import js_data

SORTS = (
    ("relevance", "Relevance"),
    ("price-asc", "Price: low to high"),
    ("price-desc", "Price: high to low"),
    ("rating", "Customer rating"),
    ("name", "Name"),
)
CSS = """
body { background: #f6f3ee; }
header.shop { background: #2d2a26; color: #fff; display: flex; align-items: center; gap: 24px; padding: 14px 28px; }
header.shop .brand { font-size: 22px; font-weight: bold; letter-spacing: .5px; }
#shop-nav a { color: #ffd9a0; margin-right: 18px; text-decoration: none; font-size: 16px; }
#shop-nav a[aria-current=page] { color: #fff; text-decoration: underline; }
main { padding: 18px 28px; max-width: 1300px; }
table.data { border-collapse: collapse; background: #fff; margin: 8px 0; }
table.data th, table.data td { border: 1px solid #ddd3c4; padding: 6px 10px; text-align: left; vertical-align: top; }
table.data th { background: #efe6d8; }
button { background: #c8641e; color: #fff; border: 0; border-radius: 4px; padding: 8px 16px; }
button.secondary { background: #7a6f62; }
button[disabled] { background: #bbb; }
.sr { position: absolute; left: -9999px; }
fieldset { border: 1px solid #ddd3c4; margin: 14px 0; max-width: 560px; }
fieldset div { margin: 6px 0; }
"""


def page(app: AppSpec, session: Session | None, client_plan: dict[str, Any] | None) -> str:
    data = {
        "categories": list(CATEGORIES),
        "brands": list(BRANDS),
        "sorts": [list(s) for s in SORTS],
        "reasons": list(REASONS),
    }
    body = """<header class="shop"><div class="brand">Hearth &amp; Trail</div>
<nav id="shop-nav" aria-label="Shop"><a href="#/search" id="nav-search" data-view="search">Search</a>
<a href="#/cart" id="nav-cart" data-view="cart">Cart (<span id="cart-count">0</span>)</a>
<a href="#/orders" id="nav-orders" data-view="orders">Your orders</a></nav></header>
<main><div id="wf-status"></div><div id="app"></div></main>"""
    script = f"const SHOP = {js_data(data)};\n{asset(__file__, 'shop.js')}"
    return document(app, client_plan, body, css=CSS, script=script)
