"""The tour booking's own page: a travel header and nav, the status area, and booking.js."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.booking.content import TOURS
from webfovea_breakingweb.engine.page import asset, document
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session
from webfovea_proving_ground.sites.layout import js_data

CSS = """
body { background: #f1f6f4; }
header.trip { background: #1d4d3f; color: #fff; display: flex; align-items: center; gap: 28px; padding: 14px 28px; }
header.trip .brand { font-size: 22px; font-weight: bold; }
#trip-nav a { color: #c6f0dc; margin-right: 18px; text-decoration: none; font-size: 16px; }
#trip-nav a[aria-current=page] { color: #fff; text-decoration: underline; }
main { padding: 18px 28px; max-width: 1200px; }
table.data { border-collapse: collapse; background: #fff; margin: 8px 0; }
table.data th, table.data td { border: 1px solid #cfe0d8; padding: 6px 10px; text-align: left; }
table.data th { background: #dcebe4; }
button { background: #217a5b; color: #fff; border: 0; border-radius: 4px; padding: 8px 16px; }
button[disabled] { background: #b8c4bf; }
.fields { display: grid; grid-template-columns: 160px 340px; gap: 10px 14px; align-items: center; max-width: 560px; }
dl { display: grid; grid-template-columns: 140px auto; gap: 6px; background: #fff; padding: 12px; max-width: 560px; }
dt { font-weight: bold; }
ol.steps { display: flex; gap: 18px; list-style: none; padding: 0; color: #5b6f67; }
ol.steps li.on { color: #1d4d3f; font-weight: bold; }
"""


def page(app: AppSpec, session: Session | None, client_plan: dict[str, Any] | None) -> str:
    data = {"tours": [[t, n] for t, n, *_ in TOURS]}
    body = """<header class="trip"><div class="brand">Nordic Trails</div>
<nav id="trip-nav" aria-label="Bookings"><a href="#/search" id="nav-search" data-view="search">Find a tour</a>
<a href="#/reservations" id="nav-reservations" data-view="reservations">Your reservations</a></nav></header>
<main><div id="wf-status"></div><div id="app"></div></main>"""
    script = f"const TRIP = {js_data(data)};\n{asset(__file__, 'booking.js')}"
    return document(app, client_plan, body, css=CSS, script=script)
