"""Plan steps on the calendar's page (docs/contracts.md §1), shared by the task templates.

Each step expects what a careful person checks before going on; a write expects the page's
success message (hidden when a request starts), as a person trusts what the page says. An
event is opened from the month view by its chip (id and occurrence), as a person finds it by
its day: the instruction gives the day and the title."""

from __future__ import annotations

from datetime import date

from webfovea_breakingweb.apps.calendar.times import MONTHS, TODAY
from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, visible

SIGN_IN = "If asked to sign in, the user name is analyst and the password portal-2025."
API = "/api/calendar"
SHOWS = {"month": "#month", "week": "#week", "invites": "#invites", "new": "#n-title", "search": "#s-q",
         "units": "#units", "settings": "#p-zone"}  # fmt: skip


def tab(view: str) -> Step:
    return click(L(f'nav.tabs a[data-view="{view}"]'), expect=visible(L(SHOWS[view])))


def months_ahead(day: date) -> int:
    return (day.year - TODAY.year) * 12 + day.month - TODAY.month


def to_month(day: date) -> list[Step]:
    """The Month tab, then *Next* until the day's month shows (the calendar opens on today's)."""
    steps = [tab("month")]
    for k in range(1, months_ahead(day) + 1):
        y, m = divmod(TODAY.month - 1 + k, 12)
        steps.append(click(L("#next"), expect=text_has(L("#period"), f"{MONTHS[m]} {TODAY.year + y}")))
    return steps


def chip(eid: str, occ: str) -> str:
    return f'#month a.ev[data-id="{eid}"][data-occ="{occ}"]'


def open_event(eid: str, occ: str, day: date) -> list[Step]:
    """From any view: the day's month, then the event's chip on that day."""
    opened = visible(L(f'#event[data-id="{eid}"] #e-meta'))
    return [*to_month(day), click(L(chip(eid, occ)), expect=opened)]


def search_open(eid: str, title: str) -> list[Step]:
    """The Search tab: the title, *Search*, the result."""
    return [
        tab("search"),
        fill(L("#s-q"), title, expect={"target": L("#s-q"), "value": title}),
        click(L("#s-go"), expect=visible(L(f'#results tr[data-id="{eid}"]'))),
        click(
            L(f'#results tr[data-id="{eid}"] td.title a'),
            expect=visible(L(f'#event[data-id="{eid}"] #e-meta')),
        ),
    ]


def typed(selector: str, value: str) -> Step:
    return fill(L(selector), value, expect={"target": L(selector), "value": value})


def chosen(selector: str, label: str, value: str) -> Step:
    return select(L(selector), label, expect={"target": L(selector), "value": value})


def toast_after(target: str, also: dict | None = None) -> Step:
    shown = visible(L("#toast"))
    return click(L(target), expect={"all": [shown, also]} if also else shown)


def view_path(view: str) -> str:
    """A view after a fresh load (`?view=` deep link)."""
    return f"/app/calendar?view={view}"


def opened(eid: str, **query: str) -> dict:
    """A retrieval obligation: the page asked the server for this event (the answer's source)."""
    pred: dict = {"path": f"{API}/events/{eid}", "method": "GET", "which": "any", "status": {"lt": 400},
                  "label": f"event {eid} was opened"}  # fmt: skip
    if query:
        pred["query"] = query
    return {"request": pred}


def listed(path: str, why: str, **query: str) -> dict:
    pred: dict = {"path": API + path, "method": "GET", "which": "any", "status": {"lt": 400}, "label": why}
    if query:
        pred["query"] = query
    return {"request": pred}
