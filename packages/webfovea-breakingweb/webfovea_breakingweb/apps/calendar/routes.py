"""The calendar's JSON API under `/api/calendar`, bound to the browser's session.

  GET    month?ym=YYYY-MM · week?start=YYYY-MM-DD     the month grid / a week, in your time zone
  GET    events?q=                                    search your calendar by title
  GET    events/{id}?occ=&zone=                       an event (one occurrence; shown in another zone)
  POST   events                                       a new event {title, calendar, date, time,
                                                      minutes, zone, location, repeat, count, attendees}
  PUT    events/{id}                                  edit your event (the same fields but repeat)
  DELETE events/{id}                                  delete your event (a series: all of it)
  POST   events/{id}/skip {occ}                       delete one occurrence of a series
  GET    invitations · POST invitations/{id}/{accept|decline}
  GET    profile · PUT profile {zone}                 your time zone
  GET    recent                                       the events you created, newest first
  GET    rooms                                        the rooms legend

Writes go through engine/store.py (save hooks, one transaction, validation) and change only
what differs; a value the model refuses is a 422 and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from webfovea_breakingweb.apps.calendar import views as v
from webfovea_breakingweb.apps.calendar.state import ME, CalendarState, Event
from webfovea_breakingweb.apps.calendar.times import ZONE_NAMES, to_utc, tz
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.routes import AppRoutes, Call, Handler
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

API = "/api/calendar"
EDITABLE = ("title", "calendar", "minutes", "zone", "location")


def _own(state: CalendarState, eid: str) -> Event:
    ev = st.find(state.events, eid, "event")
    if ev.organizer != ME:
        raise st.Rejected(
            f"Only the organiser ({ev.organizer}) can change this event; answer the invitation instead."
        )
    return ev


def _fields(f: dict[str, Any], ev: Event | None) -> dict[str, Any]:
    """The stored fields a form sends: the start from its date, time and zone (UTC)."""
    out = {k: f[k] for k in EDITABLE if k in f}
    if isinstance(out.get("minutes"), str) and out["minutes"].isdigit():
        out["minutes"] = int(out["minutes"])
    zone = str(out.get("zone") or (ev.zone if ev else ""))
    try:
        tz(zone)
        if "date" in f or "time" in f:
            out["start"] = to_utc(v.parse_local(str(f.get("date", "")), str(f.get("time", ""))), zone)
    except ValueError as e:
        raise st.Rejected(str(e)) from None
    if isinstance(out.get("title"), str):
        out["title"] = out["title"].strip()
    return out


def _update(state: CalendarState, ev: Event, fields: dict[str, Any]) -> tuple[Event, bool]:
    new = {k: val for k, val in fields.items() if getattr(ev, k) != val}
    if not new:
        return ev, False
    at = state.events.index(ev)
    state.events[at] = Event.model_validate({**ev.model_dump(), **new, "updated": st.now(state)})
    return state.events[at], True


def _create(state: CalendarState, f: dict[str, Any]) -> Event:
    fields = _fields(f, None)
    if "start" not in fields:
        raise st.Rejected("date and time: enter when the event starts")
    repeat = str(f.get("repeat") or "none")
    count = int(f.get("count") or 1) if repeat != "none" else 1
    known = {c.id for c in state.contacts}
    people = sorted(set(f.get("attendees") or []))
    if not set(people) <= known:
        raise st.Rejected("attendees: unknown contact")
    ev = Event.model_validate({
        **fields, "id": st.next_id(state.events, "E-"), "organizer": ME, "attendees": people,
        "repeat": repeat, "count": count, "created": st.now(state), "updated": st.now(state),
    })  # fmt: skip
    state.events.append(ev)
    state.counter += 1
    return ev


def register(app: AppSpec, main: FastAPI, store: SessionStore) -> None:  # noqa: C901 - one route each
    r = AppRoutes(app, main, store)

    def read(path: str) -> Callable[[Handler], Handler]:
        """A read whose answer also carries your time zone (every view is shown in it)."""

        def zoned(view: Handler) -> Handler:
            def handler(c: Call, **params: str) -> dict[str, Any]:
                data = view(c, **params)
                zone = v.my_zone(c.state)
                return {"zone": zone, "zone_name": ZONE_NAMES[zone], **data}

            handler.__name__ = view.__name__
            r.read(path)(handler)
            return view

        return zoned

    @read("/month")
    def month(c: Call) -> dict[str, Any]:
        return v.month(c.state, c.query.get("ym", ""))

    @read("/week")
    def week(c: Call) -> dict[str, Any]:
        return v.week(c.state, c.query.get("start", ""))

    @read("/events")
    def events(c: Call) -> dict[str, Any]:
        q = c.query.get("q", "")
        rows = v.search(c.state, q)
        return {"results": rows, "total": len(rows), "q": q}

    @read("/events/{eid}")
    def event(c: Call, eid: str) -> dict[str, Any]:
        zone = c.query.get("zone", "")
        if zone:
            tz(zone)
        return v.detail(c.state, st.find(c.state.events, eid, "event"), c.query.get("occ", ""), zone)

    @r.write("/events")
    def create(c: Call) -> dict[str, Any]:
        ev = _create(c.state, c.submitted())
        return {"record": ev.model_dump(), "message": f"Event created. Reference {ev.id}."}

    @r.write("/events/{eid}", method="PUT")
    def edit(c: Call, eid: str) -> dict[str, Any]:
        ev = _own(c.state, eid)
        got, changed = _update(c.state, ev, _fields(c.submitted(eid), ev))
        return {"record": got.model_dump(), "message": f"Saved {eid}." if changed else "No changes to save."}

    @r.write("/events/{eid}", method="DELETE", body=None)
    def delete(c: Call, eid: str) -> dict[str, Any]:
        ev = _own(c.state, eid)
        c.state.events.remove(ev)
        return {"message": f"Deleted “{ev.title}”."}

    @r.write("/events/{eid}/skip")
    def skip(c: Call, eid: str) -> dict[str, Any]:
        state: CalendarState = c.state
        ev = _own(state, eid)
        occ = str(c.body.get("occ", ""))
        keys = [o["occ"] for o in v.occurrences(state, ev)]
        if ev.repeat == "none" or occ not in keys:
            raise st.Rejected("occ: not an occurrence of this series")
        if len(keys) == 1:
            raise st.Rejected("This is the last occurrence: delete the event instead.")
        _update(state, ev, {"skipped": sorted({*ev.skipped, occ})})
        return {"message": f"Removed the occurrence of {occ} from “{ev.title}”."}

    @read("/invitations")
    def invitations(c: Call) -> dict[str, Any]:
        state: CalendarState = c.state
        rows = []
        for inv in state.invitations:
            ev = st.find(state.events, inv.event, "event")
            first = v.occurrences(state, ev)[0]
            rows.append(
                {**inv.model_dump(), "title": ev.title, **{k: first[k] for k in ("date", "time", "label")}}
            )
        return {"invitations": rows, "pending": sum(1 for i in state.invitations if i.status == "pending")}

    @r.write("/invitations/{iid}/{action}")
    def reply(c: Call, iid: str, action: str) -> dict[str, Any]:
        state: CalendarState = c.state
        status = {"accept": "accepted", "decline": "declined"}.get(action)
        if status is None:
            raise LookupError(f"No action {action}.")
        inv = st.find(state.invitations, iid, "invitation")
        fields = c.submitted(iid, {"status": status})
        if inv.status != fields["status"]:
            at = state.invitations.index(inv)
            state.invitations[at] = inv.model_copy(update={**fields, "updated": st.now(state)})
        title = st.find(state.events, inv.event, "event").title
        return {"message": f"You {status} “{title}”."}

    @read("/profile")
    def profile(c: Call) -> dict[str, Any]:
        return {
            "profile": c.state.profile[0].model_dump(),
            "zones": list(ZONE_NAMES.items()),
            "contacts": [x.model_dump() for x in c.state.contacts],
        }

    @r.write("/profile", method="PUT")
    def set_profile(c: Call) -> dict[str, Any]:
        fields = c.submitted("me", {"zone": c.body.get("zone")})
        try:
            tz(str(fields["zone"]))
        except ValueError as e:
            raise st.Rejected(str(e)) from None
        if c.state.profile[0].zone != fields["zone"]:
            c.state.profile[0] = c.state.profile[0].model_copy(update={"zone": fields["zone"]})
        return {"message": f"Your time zone is now {ZONE_NAMES[fields['zone']]}."}

    @read("/recent")
    def recent(c: Call) -> dict[str, Any]:
        own = sorted((e for e in c.state.events if e.organizer == ME), key=lambda e: e.id, reverse=True)[:8]
        return {"events": [{"id": e.id, "title": e.title, "calendar": e.calendar, "repeat": e.repeat,
                            "count": e.count, **(v.occurrences(c.state, e) or [{}])[0]} for e in own]}  # fmt: skip

    @read("/rooms")
    def rooms(c: Call) -> dict[str, Any]:
        return {"rooms": c.state.units}
