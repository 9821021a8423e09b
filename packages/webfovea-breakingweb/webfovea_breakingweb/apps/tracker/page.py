"""The issue tracker's page, in its own look: an app bar, tabs for the board, the list and a
new ticket, `#wf-status`, and the client (`tracker.js`); engine/page.py adds the rest."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.mail.page import shell
from webfovea_breakingweb.engine.page import asset
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session

CSS = """
nav.tabs { display: flex; gap: 6px; margin: 0 0 16px 0; }
nav.tabs a { padding: 8px 16px; border-radius: 4px 4px 0 0; background: #dde6ef; color: #14507f; text-decoration: none; }
nav.tabs a.active { background: #fff; font-weight: bold; border: 1px solid #d5dce4; border-bottom: none; }
form.filter { display: flex; gap: 10px; align-items: center; margin-bottom: 12px; }
#board { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 12px; align-items: start; }
#board .col { background: #e4eaf1; border-radius: 6px; padding: 8px; min-height: 240px; }
#board .col.over { outline: 3px dashed #0b5cab; background: #d6e4f3; }
#board .col h3 { margin: 4px 4px 10px 4px; font-size: 15px; color: #14507f; }
.tcard { background: #fff; border: 1px solid #cfd8e2; border-left: 4px solid #9aa7b4; border-radius: 5px; padding: 8px 10px;
         margin-bottom: 8px; cursor: grab; user-select: none; touch-action: none; position: relative; font-size: 14px; }
.tcard.prio-high { border-left-color: #c77d14; } .tcard.prio-urgent { border-left-color: #b03a2e; }
.tcard.dragging { opacity: .4; }
.tcard .key { font-size: 12px; color: #5a6877; margin-bottom: 3px; }
.tcard .meta { font-size: 12px; color: #44505c; margin-top: 4px; }
.tcard .move-btn { height: 24px; font-size: 12px; padding: 0 8px; margin-top: 6px; }
.tcard .menu { position: absolute; z-index: 5; background: #fff; border: 1px solid #9aa7b4; border-radius: 4px; padding: 4px;
               display: flex; flex-direction: column; gap: 2px; box-shadow: 0 3px 10px rgba(0,0,0,.15); }
.tcard .menu[hidden] { display: none; }
.tcard .menu button { height: 28px; font-size: 13px; background: #fff; color: #0b5cab; }
.filters { margin-bottom: 10px; }
#t-meta { display: grid; grid-template-columns: 110px 1fr; gap: 4px 12px; font-size: 14px; margin: 0 0 12px 0; }
#t-meta dt { color: #5a6877; } #t-meta dd { margin: 0; }
#comments { padding-left: 18px; } #comments li { margin-bottom: 10px; } #comments .head { font-size: 13px; color: #44505c; }
#t-edit .fields, #new-ticket .fields { display: grid; grid-template-columns: 180px 420px; gap: 12px 16px; align-items: center; }
#app textarea { font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; width: 420px; }
#app input[type=number] { font: inherit; padding: 7px 9px; border: 1px solid #9aa7b4; border-radius: 4px; height: 36px; }
#app input[type=text] { width: 420px; }
fieldset { border: 1px solid #d5dce4; border-radius: 4px; margin-top: 14px; max-width: 640px; }
label.check { display: inline-flex; gap: 5px; align-items: center; margin-right: 14px; font-size: 14px; }
"""


TABS = (
    '<nav class="tabs" aria-label="Views">'
    + "".join(
        f'<a href="#/{v}" data-view="{v}">{label}</a>'
        for v, label in (
            ("board", "Board"),
            ("list", "All tickets"),
            ("new", "New ticket"),
            ("units", "Team"),
        )
    )
    + "</nav>"
)


def render(app: AppSpec, session: Session | None, plan: dict[str, Any] | None) -> str:
    return shell(app, plan, ("#4b2e83", "Portal team"), CSS, asset(__file__, "tracker.js"), nav=TABS)
