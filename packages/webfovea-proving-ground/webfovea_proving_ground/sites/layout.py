"""The shared look of the proving-ground sites: page shell, header, navigation and CSS.

Every page is rendered at 1920x1080 in the agent's screenshots, so the shell mimics a
real public-sector portal (a coloured masthead, a nav bar, breadcrumbs, cards) instead
of bare HTML: targets sit where they would on a live site, away from the top-left.
"""

from __future__ import annotations

import html
import json
from typing import Any

NAV: list[tuple[str, str]] = [
    ("/", "Home"),
    ("/stats", "Statistics"),
    ("/stats/compare", "Compare"),
    ("/dashboard", "Trade dashboard"),
    ("/rankings", "Rankings"),
    ("/filings", "Filings"),
    ("/gate", "Customs data"),
    ("/shipments", "Shipments"),
    ("/energy", "Energy prices"),
    ("/register", "Company register"),
    ("/requests", "Data requests"),
    ("/publications", "Publications"),
]

CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 15px;
       color: #1d2733; background: #eef1f5; }
a { color: #0b5cab; }
.masthead { background: #0f3b63; color: #fff; height: 78px; display: flex; align-items: center;
            padding: 0 48px; gap: 18px; }
.masthead .logo { width: 42px; height: 42px; border-radius: 8px; background: #f2b632;
                  display: flex; align-items: center; justify-content: center; font-weight: bold;
                  color: #0f3b63; font-size: 20px; }
.masthead .brand { font-size: 22px; font-weight: bold; letter-spacing: .2px; }
.masthead .tagline { font-size: 13px; opacity: .8; }
.masthead .spacer { flex: 1; }
.masthead .lang { font-size: 13px; opacity: .85; }
nav.main { background: #14507f; padding: 0 48px; display: flex; gap: 2px; height: 44px; }
nav.main a { color: #e6eef7; text-decoration: none; padding: 0 14px; line-height: 44px; font-size: 14px; }
nav.main a.active { background: #eef1f5; color: #0f3b63; font-weight: bold; }
nav.main a:hover { background: #1b659f; }
.crumbs { padding: 12px 48px 0 48px; font-size: 13px; color: #5a6877; }
main { padding: 16px 48px 48px 48px; }
h1 { font-size: 26px; margin: 8px 0 6px 0; color: #0f3b63; }
.lead { color: #4a5866; margin: 0 0 18px 0; max-width: 1100px; }
.card { background: #fff; border: 1px solid #d5dce4; border-radius: 6px; padding: 18px 22px;
        margin-bottom: 18px; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
.card h2 { font-size: 18px; margin: 0 0 12px 0; color: #14507f; }
.row { display: flex; gap: 18px; align-items: flex-end; flex-wrap: wrap; }
label.f { display: flex; flex-direction: column; gap: 5px; font-size: 13px; color: #44505c; font-weight: bold; }
select, input[type=text], input[type=date], input[type=search] {
  font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; background: #fff;
  min-width: 220px; height: 36px; }
button, .btn { font: inherit; padding: 0 20px; height: 36px; border-radius: 4px; border: 1px solid #0b5cab;
               background: #0b5cab; color: #fff; cursor: pointer; text-decoration: none; display: inline-flex;
               align-items: center; }
button.secondary, .btn.secondary { background: #fff; color: #0b5cab; }
table.data { border-collapse: collapse; width: 100%; background: #fff; font-size: 14px; }
table.data th { background: #dde6ef; text-align: left; padding: 8px 12px; border-bottom: 2px solid #9fb3c8;
                position: sticky; top: 0; }
table.data td { padding: 8px 12px; border-bottom: 1px solid #e3e8ee; }
table.data tr:nth-child(even) td { background: #f7f9fb; }
table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data tfoot td { font-weight: bold; background: #eef3f8; border-top: 2px solid #9fb3c8; }
.muted { color: #6a7783; font-size: 13px; }
.spinner { width: 44px; height: 44px; border: 5px solid #c9d6e3; border-top-color: #0b5cab; border-radius: 50%;
           animation: spin 0.9s linear infinite; margin: 40px auto; }
@keyframes spin { to { transform: rotate(360deg); } }
footer { padding: 24px 48px; font-size: 12px; color: #6a7783; border-top: 1px solid #d5dce4; }
"""


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def js_data(value: Any) -> str:
    """JSON for embedding inside a <script> element (no '</script>' break-out)."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def page(
    title: str, body: str, *, active: str = "", crumbs: str = "", extra_css: str = "", script: str = ""
) -> str:
    """A full portal page: masthead, nav (with `active` highlighted), breadcrumbs and body."""
    links = "".join(
        f'<a href="{href}"{" class=active" if href == active else ""}>{esc(label)}</a>' for href, label in NAV
    )
    crumb_html = f'<div class="crumbs">Home › {esc(crumbs or title)}</div>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)} · Open Data Portal</title>
<style>{CSS}{extra_css}</style></head>
<body>
<header class="masthead"><div class="logo">OD</div><div><div class="brand">Open Data Portal</div>
<div class="tagline">Official statistics, filings and registers</div></div><div class="spacer"></div>
<div class="lang">English · Français · Español</div></header>
<nav class="main">{links}</nav>
{crumb_html}
<main>
{body}
</main>
<footer>© Open Data Portal · Data are synthetic and generated for testing web agents.</footer>
<script>{script}</script>
</body></html>"""


def frame_page(title: str, body: str, *, extra_css: str = "", script: str = "") -> str:
    """A bare page for embedding in an iframe from the second origin."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{CSS}{extra_css}</style></head>
<body>{body}<script>{script}</script></body></html>"""
