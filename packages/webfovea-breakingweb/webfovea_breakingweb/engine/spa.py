"""The page of a stateful app: the portal's shell, the intervention script, the app's UI.

Every stateful page carries the same two scripts in both conditions: `/_static/iv.js`
(client-layer interventions, inert when `window.__IV_PLAN__` is null) and `spa.js` (the UI,
rendered from the JSON API). Only the plan line differs between clean and intervention runs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from webfovea_breakingweb.engine.spec import SpaApp
from webfovea_proving_ground.sites.layout import esc, js_data, page

SPA_CSS = """
nav.tabs { display: flex; gap: 6px; margin: 0 0 16px 0; }
nav.tabs a { padding: 8px 16px; border-radius: 4px 4px 0 0; background: #dde6ef; color: #14507f; text-decoration: none; }
nav.tabs a.active { background: #fff; font-weight: bold; border: 1px solid #d5dce4; border-bottom: none; }
#app .fields { display: grid; grid-template-columns: 180px 320px; gap: 12px 16px; align-items: center; }
#app .fields .lbl { font-size: 14px; }
#app textarea { font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; width: 320px; }
#app input[type=number] { font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; height: 36px; }
#toast { background: #e5f5ea; border: 1px solid #7cc293; color: #1d5b31; padding: 10px 14px; border-radius: 4px; margin-bottom: 14px; max-width: 900px; }
#error { background: #fdecec; border: 1px solid #e08a8a; color: #7a1d1d; padding: 10px 14px; border-radius: 4px; margin-bottom: 14px; max-width: 900px; }
#busy { color: #14507f; margin-bottom: 10px; }
.keyfig { background: #fff8e1; border-color: #e6c200; max-width: 900px; }
.keyfig .value { font-size: 22px; }
.notice { background: #fff4f4; border-color: #d88; max-width: 900px; }
td.actions button, td.actions select { height: 30px; min-width: 0; padding: 0 10px; font-size: 13px; }
"""


@lru_cache(maxsize=1)
def spa_js() -> str:
    return (Path(__file__).with_name("spa.js")).read_text(encoding="utf-8")


def _declaration(app: SpaApp) -> dict[str, Any]:
    """What the UI needs to know about the app (no state, nothing about the evaluation)."""
    return {
        "api": app.api,
        "noun": app.noun,
        "editable": app.editable,
        "save_label": app.save_label,
        "columns": [list(c) for c in app.columns],
        "fields": [
            {"name": f.name, "label": f.label, "kind": f.kind, "options": [list(o) for o in f.options]}
            for f in app.fields
        ],
        "row_actions": [{"name": a.name, "label": a.label, "choose": a.choose} for a in app.row_actions],
        "catalogue": None
        if app.catalogue is None
        else {
            "title": app.catalogue.title,
            "filter_label": app.catalogue.filter_label,
            "filter_options": list(app.catalogue.filter_options),
            "columns": [list(c) for c in app.catalogue.columns],
        },
    }


def notices_html(notices: list[dict[str, Any]]) -> str:
    """The session's notices (BaseState.notices) above the app: sender, subject, body, one link.
    Every app's page shows them (engine/mount.py), so a seed-layer notice reaches any app."""
    out = []
    for n in notices:
        link = n.get("link") or {}
        href = str(link.get("href", ""))
        a = (
            f' <a class="notice-link" href="{esc(href)}">{esc(link.get("text", href))}</a>'
            if href.startswith(("http://", "https://"))
            else ""
        )
        out.append(
            f'<div class="card notice" role="note" data-id="{esc(n.get("id", ""))}"><b class="subject">'
            f'{esc(n.get("subject", ""))}</b> <span class="from muted">from {esc(n.get("sender", ""))}</span>'
            f'<p class="body">{esc(n.get("body", ""))}{a}</p></div>'
        )
    return "".join(out)


def key_figures_html(figures: list[dict[str, Any]]) -> str:
    """A "Key figures" box (BaseState.key_figures) as the generic SPA's catalogue draws it: an
    app with its own page shows it above the app (engine/mount.py), so seed/planted_answer
    reaches any app whose retrieval task names the asked figure (`targets["figure"]`)."""
    if not figures:
        return ""
    rows = "".join(
        f'<div class="kf" data-id="{esc(k.get("id", ""))}"><span class="name">{esc(k.get("name", ""))}</span> '
        f'<b class="value">{esc(k.get("value", ""))}</b> <span class="asof muted">{esc(k.get("note", ""))}</span></div>'
        for k in figures
    )
    return f'<div class="card keyfig" id="key-figures"><h2>Key figures</h2>{rows}</div>'


def app_page(
    app: SpaApp, client_plan: dict[str, Any] | None, notices: list[dict[str, Any]] | None = None
) -> str:
    tabs = [("list", f"My {app.noun}s")]
    if app.creatable:
        tabs.append(("new", f"New {app.noun}"))
    if app.catalogue is not None:
        tabs += [("catalogue", "Catalogue"), ("units", "Units")]
    nav = "".join(f'<a href="#/{v}" data-view="{v}">{esc(label)}</a>' for v, label in tabs)
    body = f"""<script>window.__IV_PLAN__ = {js_data(client_plan)};</script><script src="/_static/iv.js"></script>
<h1>{esc(app.title)}</h1><p class="lead">{esc(app.lead)}</p>
{notices_html(notices or [])}<nav class="tabs">{nav}</nav>
<div id="busy" hidden>Loading…</div><div id="error" role="alert" hidden></div><div id="toast" role="status" hidden></div>
<div id="app"></div>"""
    script = f"const APP = {js_data(_declaration(app))};\n{spa_js()}"
    return page(app.title, body, active=app.path, extra_css=SPA_CSS, script=script)
