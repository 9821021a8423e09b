"""The mail client's page, in its own look: an app bar, `#wf-status` (errors, toasts, the
sign-in), and the client (`mail.js`), which renders every view from the JSON API (routes.py).
engine/page.py adds what every app page carries (the client plan, iv.js, client.js)."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.page import asset, document
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session
from webfovea_proving_ground.sites.layout import CSS as PORTAL_CSS
from webfovea_proving_ground.sites.layout import esc

CSS = """
.mail { display: grid; grid-template-columns: 220px 1fr; gap: 18px; align-items: start; }
#sidebar { background: #fff; border: 1px solid #d5dce4; border-radius: 6px; padding: 14px; }
#sidebar h3 { font-size: 13px; text-transform: uppercase; color: #5a6877; margin: 14px 0 6px 0; }
#sidebar ul { list-style: none; margin: 0; padding: 0; }
#sidebar li a { display: flex; align-items: center; gap: 8px; padding: 6px 8px; border-radius: 4px; text-decoration: none; color: #1d2733; }
#sidebar li a.active { background: #dde6ef; font-weight: bold; }
#sidebar .count { margin-left: auto; background: #0b5cab; color: #fff; border-radius: 10px; padding: 0 8px; font-size: 12px; }
#sidebar .dot { width: 10px; height: 10px; border-radius: 50%; display: inline-block; }
#compose-new { width: 100%; justify-content: center; }
#main { min-width: 0; }
form.search { display: flex; gap: 8px; align-items: center; margin-bottom: 10px; }
form.search label { font-weight: bold; font-size: 13px; }
form.search input { min-width: 320px; }
.toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; background: #fff; border: 1px solid #d5dce4;
           border-radius: 6px; padding: 8px 10px; margin-bottom: 8px; }
.toolbar button, .toolbar select { height: 32px; font-size: 13px; padding: 0 10px; min-width: 0; }
.toolbar .grp { display: inline-flex; gap: 4px; align-items: center; font-size: 13px; margin-left: 6px; }
.toolbar label.inline { display: inline-flex; gap: 4px; align-items: center; font-size: 13px; margin-right: 6px; }
#list-info { margin: 6px 0 8px 0; font-size: 14px; }
#records tr.unread td.from, #records tr.unread td.subject a { font-weight: bold; }
#records td.sel, #records th.sel { width: 36px; }
#records td.star button { height: 28px; padding: 0 8px; background: #fff; color: #c77d14; border-color: #d5dce4; font-size: 16px; }
#records td.status { font-size: 12px; color: #5a6877; }
#records td.date { white-space: nowrap; font-size: 13px; color: #5a6877; }
.chip { display: inline-block; font-size: 11px; background: #eef3f8; border: 1px solid #c9d6e3; border-radius: 10px; padding: 0 7px; margin-left: 4px; }
.clip { font-size: 12px; color: #5a6877; margin-left: 4px; }
.pager { display: flex; gap: 10px; align-items: center; margin-top: 10px; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
#msg-meta { display: grid; grid-template-columns: 110px 1fr; gap: 4px 12px; font-size: 14px; margin: 0 0 12px 0; }
#msg-meta dt { color: #5a6877; }
#msg-meta dd { margin: 0; }
#thread { list-style: none; padding: 0; margin: 0; }
#thread li.msg { border-top: 1px solid #e3e8ee; padding: 10px 0; }
#thread .head { font-size: 13px; color: #44505c; margin-bottom: 6px; }
#thread .body { white-space: pre-wrap; }
#thread .attachments { margin: 8px 0 0 0; padding-left: 18px; font-size: 13px; }
#compose .fields { display: grid; grid-template-columns: 180px 420px; gap: 12px 16px; align-items: center; }
#compose .fields .lbl { font-size: 14px; }
#compose textarea { font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; width: 420px; }
#compose input[type=text] { width: 420px; }
#login .fields { display: grid; grid-template-columns: 180px 320px; gap: 12px 16px; align-items: center; }
#wf-status { max-width: 900px; }
header.appbar { height: 64px; display: flex; align-items: center; gap: 16px; padding: 0 32px; color: #fff; }
header.appbar .name { font-size: 22px; font-weight: bold; }
header.appbar .who { margin-left: auto; font-size: 14px; opacity: .9; }
main.app { padding: 18px 32px 40px 32px; }
"""


def shell(
    app: AppSpec, plan: dict[str, Any] | None, look: tuple[str, str], css: str, script: str, nav: str = ""
) -> str:
    """The page of an app with this look (bar colour, who is signed in): its bar, `nav`, the
    status line, `#app` for the client."""
    colour, who = look
    body = f"""<header class="appbar" style="background:{colour}"><span class="name">{esc(app.title)}</span>
<span class="who">{esc(who)}</span></header><main class="app"><p class="lead">{esc(app.lead)}</p>
{nav}<div id="wf-status" aria-live="polite"></div><div id="app"></div></main>"""
    return document(app, plan, body, css=PORTAL_CSS + CSS + css, script=script)


def render(app: AppSpec, session: Session | None, plan: dict[str, Any] | None) -> str:
    return shell(app, plan, ("#1f4f5f", "analyst@portal.example"), "", asset(__file__, "mail.js"))
