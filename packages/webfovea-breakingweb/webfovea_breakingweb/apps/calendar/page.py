"""The calendar's page, in its own look: an app bar, tabs for its views, `#wf-status`, and the
client (`calendar.js`); engine/page.py adds the rest (the client plan, iv.js, client.js)."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.apps.mail.page import shell
from webfovea_breakingweb.engine.page import asset
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session

CSS = """
nav.tabs { display: flex; gap: 6px; margin: 0 0 16px 0; }
nav.tabs a { padding: 8px 16px; border-radius: 4px 4px 0 0; background: #e6e1f0; color: #46306e; text-decoration: none; }
nav.tabs a.active { background: #fff; font-weight: bold; border: 1px solid #d5dce4; border-bottom: none; }
.pager { display: flex; gap: 12px; align-items: center; margin-bottom: 6px; }
.pager h2 { margin: 0 10px; min-width: 220px; text-align: center; }
#month { width: 100%; border-collapse: collapse; table-layout: fixed; }
#month th { font-size: 13px; color: #5a6877; padding: 4px; }
#month td { border: 1px solid #dcd6e6; vertical-align: top; height: 104px; padding: 4px; background: #fff; }
#month td.out { background: #f4f2f7; color: #9a94a6; }
.dayhead { display: flex; justify-content: space-between; font-size: 13px; margin-bottom: 2px; }
.dayhead .count { background: #6b4fa0; color: #fff; border-radius: 9px; padding: 0 6px; font-size: 11px; }
a.ev { display: block; font-size: 12px; line-height: 1.35; padding: 1px 4px; margin: 1px 0; border-radius: 3px; text-decoration: none;
       color: #1d232b; background: #e8eef7; border-left: 3px solid #2f6fb0; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
a.ev.cal-team { background: #e6f3ec; border-left-color: #2e8b57; } a.ev.cal-personal { background: #f4e8f3; border-left-color: #a0449b; }
a.ev.pending { border-left-style: dashed; font-style: italic; }
a.ev .time { font-weight: bold; } a.ev .tag { font-size: 10px; color: #6b4fa0; }
#week { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 8px; }
#week .day { background: #f4f2f7; border-radius: 6px; padding: 6px; min-height: 220px; }
#week .day h3 { font-size: 13px; margin: 2px 2px 8px; color: #46306e; }
#week a.ev { white-space: normal; padding: 4px 6px; margin-bottom: 6px; }
#week a.ev .end { display: block; font-size: 11px; color: #5a6877; }
#e-meta { display: grid; grid-template-columns: 110px 1fr; gap: 4px 12px; font-size: 14px; margin: 0 0 12px 0; }
#e-meta dt { color: #5a6877; } #e-meta dd { margin: 0; }
#tz-row { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
#occurrences li { margin-bottom: 6px; } #occurrences .skip { height: 26px; font-size: 12px; padding: 0 8px; margin-left: 8px; }
#app .fields { grid-template-columns: 200px 340px; }
#app input[type=text] { width: 340px; }
fieldset { border: 1px solid #d5dce4; border-radius: 4px; margin-top: 14px; max-width: 640px; }
label.check { display: inline-flex; gap: 5px; align-items: center; margin-right: 14px; font-size: 14px; }
button.danger { background: #fff; color: #b03a2e; border-color: #b03a2e; }
#invites td.act button { height: 28px; font-size: 13px; padding: 0 10px; }
#invites tr.declined td { color: #8a8494; }
"""

VIEWS = (
    ("month", "Month"),
    ("week", "Week"),
    ("invites", "Invitations"),
    ("new", "New event"),
    ("search", "Search"),
    ("units", "Rooms"),
    ("settings", "Settings"),
)
TABS = (
    '<nav class="tabs" aria-label="Views">'
    + "".join(f'<a href="#/{v}" data-view="{v}">{label}</a>' for v, label in VIEWS)
    + "</nav>"
)


def render(app: AppSpec, session: Session | None, plan: dict[str, Any] | None) -> str:
    return shell(
        app, plan, ("#46306e", "analyst@portal.example"), CSS, asset(__file__, "calendar.js"), nav=TABS
    )
