"""What the calendar's views show, computed on the server from the state (the page only draws
it; the task generator computes its truth with the same functions): which events you see,
their occurrences in your time zone, a month grid, a week, an event's page, the search."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from webfovea_breakingweb.apps.calendar.state import ME, CalendarState, Event
from webfovea_breakingweb.apps.calendar.times import (
    MONTHS,
    TODAY,
    ZONE_NAMES,
    day_label,
    hhmm,
    local,
    monday_of,
    month_grid,
    series,
    short_day,
)


def my_zone(state: CalendarState) -> str:
    return state.profile[0].zone


def invitation_of(state: CalendarState, eid: str) -> Any:
    return next((i for i in state.invitations if i.event == eid), None)


def shown(state: CalendarState) -> list[Event]:
    """Your events and the invitations you have not declined (declined ones leave the calendar)."""
    declined = {i.event for i in state.invitations if i.status == "declined"}
    return [e for e in state.events if e.organizer == ME or e.id not in declined]


def occurrences(state: CalendarState, ev: Event, zone: str | None = None) -> list[dict[str, Any]]:
    """The event's occurrences as shown in `zone` (default: yours): key, date, start and end."""
    z = zone or my_zone(state)
    out = []
    for key, utc in series(ev):
        at = local(utc, z)
        out.append({"occ": key, "date": at.date().isoformat(), "time": hhmm(at),
                    "end": hhmm(at + timedelta(minutes=ev.minutes)), "label": day_label(at.date())})  # fmt: skip
    return out


def chips(state: CalendarState, days: set[str]) -> dict[str, list[dict[str, Any]]]:
    """The occurrences on each of `days` (your zone), by start time then id."""
    out: dict[str, list[dict[str, Any]]] = {d: [] for d in days}
    for ev in shown(state):
        inv = invitation_of(state, ev.id)
        for o in occurrences(state, ev):
            if o["date"] in out:
                out[o["date"]].append({"id": ev.id, "occ": o["occ"], "time": o["time"], "end": o["end"],
                                       "title": ev.title, "calendar": ev.calendar,
                                       "invite": inv.status if inv else None})  # fmt: skip
    for items in out.values():
        items.sort(key=lambda c: (c["time"], c["id"]))
    return out


def month(state: CalendarState, ym: str) -> dict[str, Any]:
    y, m = (int(x) for x in ym.split("-")) if ym else (TODAY.year, TODAY.month)
    if not (2024 <= y <= 2026 and 1 <= m <= 12):
        raise ValueError("ym: a month between 2024 and 2026, as YYYY-MM")
    weeks = month_grid(y, m)
    found = chips(state, {d.isoformat() for w in weeks for d in w})
    prev = date(y, m, 1) - timedelta(days=1)
    nxt = date(y, m, 28) + timedelta(days=7)
    return {
        "ym": f"{y}-{m:02d}",
        "period": f"{MONTHS[m - 1]} {y}",
        "prev": f"{prev.year}-{prev.month:02d}",
        "next": f"{nxt.year}-{nxt.month:02d}",
        "weeks": [
            [
                {
                    "date": d.isoformat(),
                    "day": d.day,
                    "in_month": d.month == m,
                    "events": found[d.isoformat()],
                }
                for d in w
            ]
            for w in weeks
        ],  # fmt: skip
    }


def week(state: CalendarState, start: str) -> dict[str, Any]:
    first = monday_of(date.fromisoformat(start) if start else TODAY)
    days = [first + timedelta(days=i) for i in range(7)]
    found = chips(state, {d.isoformat() for d in days})
    return {
        "start": first.isoformat(),
        "period": f"{short_day(days[0])} – {short_day(days[-1])} {days[-1].year}",
        "prev": (first - timedelta(days=7)).isoformat(),
        "next": (first + timedelta(days=7)).isoformat(),
        "days": [
            {"date": d.isoformat(), "label": day_label(d), "events": found[d.isoformat()]} for d in days
        ],
        "total": sum(len(v) for v in found.values()),
    }


def room_name(state: CalendarState, code: str) -> str:
    return next((u["name"] for u in state.units if u["id"] == code), code)


def detail(state: CalendarState, ev: Event, occ: str = "", zone: str = "") -> dict[str, Any]:
    """An event's page: its occurrence `occ` (default the first) in your zone, where it was
    scheduled, every occurrence, the invitation; with `zone`, the same start in that zone."""
    rows = occurrences(state, ev)
    at = next((o for o in rows if o["occ"] == occ), rows[0] if rows else None)
    inv = invitation_of(state, ev.id)
    first_local = local(ev.start, ev.zone)
    out: dict[str, Any] = {
        "event": ev.model_dump(),
        "at": at,
        "zone": my_zone(state),
        "zone_name": ZONE_NAMES[my_zone(state)],
        "scheduled_in": ZONE_NAMES.get(ev.zone, ev.zone),
        "form": {"date": first_local.date().isoformat(), "time": hhmm(first_local)},
        "occurrences": rows,
        "invitation": inv.model_dump() if inv else None,
        "room": ev.room,
        "room_name": room_name(state, ev.room) if ev.room else "",
        "unit_display": state.unit_display,
    }
    if zone and at:
        there = next(o for o in occurrences(state, ev, zone) if o["occ"] == at["occ"])
        out["other"] = {"zone": zone, "zone_name": ZONE_NAMES[zone], **there}
    return out


def search(state: CalendarState, q: str) -> list[dict[str, Any]]:
    words = q.casefold().split()
    out = []
    for ev in shown(state):
        if words and all(w in ev.title.casefold() for w in words):
            rows = occurrences(state, ev)
            if rows:
                out.append(
                    {"id": ev.id, "title": ev.title, "calendar": ev.calendar, "repeat": ev.repeat, **rows[0]}
                )
    return sorted(out, key=lambda x: (x["date"], x["time"], x["id"]))


def parse_local(day: str, time: str) -> datetime:
    try:
        return datetime.strptime(f"{day} {time}", "%Y-%m-%d %H:%M")
    except ValueError:
        raise ValueError("date and time: give the date as YYYY-MM-DD and the time as HH:MM") from None
