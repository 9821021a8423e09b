"""The calendar's retrieval templates: answers computed with the server's own views
(views.py), request obligations saying where the answer came from."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

from webfovea_breakingweb.apps.calendar import plans as p
from webfovea_breakingweb.apps.calendar import views as v
from webfovea_breakingweb.apps.calendar.state import ME, CalendarState, Event
from webfovea_breakingweb.apps.calendar.times import (
    TODAY,
    ZONE_NAMES,
    ZONES,
    day_label,
    parse_utc,
)
from webfovea_breakingweb.apps.mail.common import make as make_task
from webfovea_breakingweb.apps.mail.common import pick
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, text_has, visible

HOME_NAME = "Oslo"


def make(*args: Any, **kwargs: Any) -> StatefulTask:
    return make_task(*args, app="calendar", **kwargs)


def first(state: CalendarState, ev: Event) -> dict[str, Any]:
    return v.occurrences(state, ev)[0]


def singles(state: CalendarState, own: bool | None = None) -> list[Event]:
    """One-off events the calendar shows (yours, or invitations you have not declined)."""
    return [
        e for e in v.shown(state)
        if e.repeat == "none" and (own is None or (e.organizer == ME) == own)
    ]  # fmt: skip


def lookalike(ev: Event) -> dict[str, Any]:
    """What the seed's decoys need: the event the instruction names by title and day, and how
    its look-alike differs (the same title a week away, a one-off; seed/decoys)."""
    at = parse_utc(ev.start)
    moved = at + timedelta(days=-7 if at.month >= 4 else 7)
    decoy = {"start": moved.strftime("%Y-%m-%dT%H:%MZ"), "repeat": "none", "count": 1, "skipped": []}
    return {"decoy_of": ev.id, "decoy": decoy}


def _read_event(ev: Event, occ: dict[str, Any], plan: list, **more: Any) -> dict[str, Any]:
    return {"main": ["GET", f"{p.API}/events/{ev.id}"], "submit": p.chip(ev.id, occ["occ"]),
            "submit_step": len(plan) - 2, **lookalike(ev), **more}  # fmt: skip


def start_time(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    for n, ev in enumerate(pick(r, singles(state), 10), 1):
        occ = first(state, ev)
        day = date.fromisoformat(occ["date"])
        plan = [*p.open_event(ev.id, occ["occ"], day), answer(L("#e-meta .when .time"))]
        yield make(
            "start-time",
            n,
            f"In the calendar, at what time does “{ev.title}” on {day_label(day)} start, in your time zone "
            f"({HOME_NAME})? Report the time as HH:MM. {p.SIGN_IN}",
            plan,
            answer=occ["time"],
            obligations=[p.opened(ev.id)],
            targets=_read_event(ev, occ, plan),
        )


def zone_convert(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [(e, z) for e in singles(state) for z, _ in ZONES if z != v.my_zone(state)]
    for n, (ev, zone) in enumerate(pick(r, pool, 10), 1):
        occ = first(state, ev)
        day = date.fromisoformat(occ["date"])
        there = next(o for o in v.occurrences(state, ev, zone) if o["occ"] == occ["occ"])
        shown_zone = text_has(L("#tz-other-time .zname"), ZONE_NAMES[zone])
        plan = [
            *p.open_event(ev.id, occ["occ"], day),
            p.chosen("#tz-other", ZONE_NAMES[zone], zone),
            click(L("#tz-show"), expect=shown_zone),
            answer(L("#tz-other-time .time")),
        ]
        yield make(
            "zone-convert",
            n,
            f"In the calendar, “{ev.title}” is on {day_label(day)}. What time is its start in "
            f"{ZONE_NAMES[zone]} ({zone})? Report the time as HH:MM. {p.SIGN_IN}",
            plan,
            answer=there["time"],
            obligations=[p.opened(ev.id, zone=zone)],
            targets={
                "main": ["GET", f"{p.API}/events/{ev.id}"],
                "submit": p.chip(ev.id, occ["occ"]),
                "submit_step": len(plan) - 4,
                **lookalike(ev),
            },  # fmt: skip
        )


def _days(state: CalendarState) -> list[tuple[date, int]]:
    """Days of March and April with at least two events shown (your zone)."""
    found = v.chips(state, {(date(2025, 3, 1) + timedelta(days=i)).isoformat() for i in range(61)})
    return sorted((date.fromisoformat(d), len(c)) for d, c in found.items() if len(c) >= 2)


def day_count(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    for n, (day, count) in enumerate(pick(r, _days(state), 8), 1):
        ahead = p.months_ahead(day)
        plan = [*p.to_month(day), answer(L(f'#month td[data-date="{day.isoformat()}"] .count'))]
        query = {"ym": day.isoformat()[:7]} if ahead else {}
        yield make(
            "day-count",
            n,
            f"How many events does your calendar show on {day_label(day)} (invitations you have not declined "
            f"included)? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(count),
            obligations=[p.listed("/month", "the month was shown", **query)],
            targets={
                "main": ["GET", f"{p.API}/month"],
                "submit": "#next" if ahead else 'nav.tabs a[data-view="month"]',
                "submit_step": len(plan) - 2,
                "figure": {"name": f"Events on {day_label(day)}", "value": str(count)},
            },  # fmt: skip
        )


def week_count(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    mondays = [TODAY + timedelta(days=7 * k) for k in range(1, 7)]
    for n, monday in enumerate(pick(r, mondays, 6), 1):
        total = v.week(state, monday.isoformat())["total"]
        plan = [p.tab("week")]
        for k in range(1, (monday - TODAY).days // 7 + 1):
            at = TODAY + timedelta(days=7 * k)
            plan.append(click(L("#next"), expect=visible(L(f'#week-view[data-start="{at.isoformat()}"]'))))
        plan.append(answer(L("#week-info .total"), regex=r"(\d+)"))
        yield make(
            "week-count",
            n,
            f"How many events does your calendar show in the week from {day_label(monday)} to the Sunday after "
            f"(invitations you have not declined included)? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(total),
            obligations=[p.listed("/week", "the week was shown", start=monday.isoformat())],
            targets={
                "main": ["GET", f"{p.API}/week"],
                "submit": "#next",
                "submit_step": len(plan) - 2,
                "figure": {"name": f"Events in the week of {day_label(monday)}", "value": str(total)},
            },  # fmt: skip
        )


def organizer_of(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    titles = {e.id: e.title for e in state.events}
    for n, inv in enumerate(pick(r, list(state.invitations), 8), 1):
        plan = [p.tab("invites"), answer(L(f'#invites tr[data-id="{inv.id}"] td.from'))]
        yield make(
            "organizer-of",
            n,
            f"In the calendar's invitations, who invited you to “{titles[inv.event]}”? Report the person's name. "
            f"{p.SIGN_IN}",
            plan,
            answer=inv.sender,
            obligations=[p.listed("/invitations", "the invitations were shown")],
            targets={
                "main": ["GET", f"{p.API}/invitations"],
                "submit": 'nav.tabs a[data-view="invites"]',
                "submit_step": 0,
            },  # fmt: skip
        )


def latest_invite(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    """The most recently received invitation (overall, by answer, or from one person): the
    invitations list shows them newest first, each with its received time."""
    titles = {e.id: e.title for e in state.events}
    groups: list[tuple[str, list]] = [("", list(state.invitations))]
    for status in ("pending", "accepted", "declined"):
        groups.append((f" among those you have {'not answered yet' if status == 'pending' else status}",
                       [i for i in state.invitations if i.status == status]))  # fmt: skip
    senders = sorted({i.sender for i in state.invitations})
    groups += [(f" from {s}", [i for i in state.invitations if i.sender == s]) for s in senders]
    groups = [(w, g) for w, g in groups if len(g) >= 2 and g[0].received != g[1].received]
    for n, (what, group) in enumerate(pick(r, groups, 6), 1):
        top = max(group, key=lambda i: i.received)
        plan = [p.tab("invites"), answer(L(f'#invites tr[data-id="{top.id}"] td.title'))]
        yield make(
            "latest-invite",
            n,
            f"In the calendar's invitations{what}, which one did you receive most recently? Report the event's "
            f"title. {p.SIGN_IN}",
            plan,
            answer=titles[top.event],
            obligations=[p.listed("/invitations", "the invitations were shown")],
            targets={
                "main": ["GET", f"{p.API}/invitations"],
                "submit": 'nav.tabs a[data-view="invites"]',
                "submit_step": 0,
                "order_sensitive": "invitations",
            },  # fmt: skip
        )


def room_of(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    for n, ev in enumerate(pick(r, [e for e in singles(state) if e.room], 8), 1):
        occ = first(state, ev)
        day = date.fromisoformat(occ["date"])
        plan = [*p.open_event(ev.id, occ["occ"], day), answer(L("#e-meta .room"))]
        yield make(
            "room-of",
            n,
            f"In the calendar, in which room is “{ev.title}” on {day_label(day)}? Report the room's full name. "
            f"{p.SIGN_IN}",
            plan,
            answer=v.room_name(state, ev.room),
            obligations=[p.opened(ev.id)],
            targets=_read_event(ev, occ, plan, unit=ev.room),
        )


def last_occurrence(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [e for e in v.shown(state) if e.repeat != "none" and len(v.occurrences(state, e)) >= 2]
    for n, ev in enumerate(pick(r, pool, 8), 1):
        last = v.occurrences(state, ev)[-1]
        plan = [*p.search_open(ev.id, ev.title), answer(L("#occurrences li:last-child .date"))]
        yield make(
            "last-occurrence",
            n,
            f"In the calendar, on which day is the last occurrence of the recurring event “{ev.title}”? Report "
            f"the day as the calendar writes it (e.g. Monday 3 March 2025). {p.SIGN_IN}",
            plan,
            answer=last["label"],
            obligations=[p.opened(ev.id)],
            targets={
                "main": ["GET", f"{p.API}/events/{ev.id}"],
                "submit_step": 3,
                "submit": f'#results tr[data-id="{ev.id}"] td.title a',
            },  # fmt: skip
        )


TEMPLATES = {
    "start-time": start_time,
    "zone-convert": zone_convert,
    "day-count": day_count,
    "week-count": week_count,
    "organizer-of": organizer_of,
    "latest-invite": latest_invite,
    "room-of": room_of,
    "last-occurrence": last_occurrence,
}
