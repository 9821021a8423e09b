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

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from webfovea.proving_ground.breakingweb.apps.calendar import views as v
from webfovea.proving_ground.breakingweb.apps.calendar.state import ME, CalendarState, Event
from webfovea.proving_ground.breakingweb.apps.calendar.times import ZONE_NAMES, to_utc, tz
from webfovea.proving_ground.breakingweb.engine import store as st
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec
from webfovea.proving_ground.sessions import Session, SessionStore

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


def register(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    def session(request: Request) -> Session | JSONResponse:
        return st.session_for(request, store, app)

    def read(
        request: Request, view: Callable[[CalendarState, dict[str, str]], dict[str, Any]]
    ) -> JSONResponse:
        s = session(request)
        if isinstance(s, JSONResponse):
            return s
        try:
            data = view(s.state, dict(request.query_params))
        except LookupError as e:
            return st.error(str(e).strip("'\""), 404)
        except ValueError as e:
            return st.error(str(e), 422)
        zone = v.my_zone(s.state)
        return JSONResponse({"ok": True, "zone": zone, "zone_name": ZONE_NAMES[zone], **data})

    async def write(
        request: Request, change: Callable[[Session, CalendarState, dict[str, Any]], dict[str, Any]]
    ) -> JSONResponse:
        s = session(request)
        if isinstance(s, JSONResponse):
            return s
        body: dict[str, Any] | JSONResponse = {}
        if request.method != "DELETE":
            body = await st.body_of(request)
            if isinstance(body, JSONResponse):
                return body
        return st.answer(s, lambda state: change(s, state, body))  # type: ignore[arg-type]

    @main.get(API + "/month")
    async def month(request: Request) -> JSONResponse:
        return read(request, lambda state, q: v.month(state, q.get("ym", "")))

    @main.get(API + "/week")
    async def week(request: Request) -> JSONResponse:
        return read(request, lambda state, q: v.week(state, q.get("start", "")))

    @main.get(API + "/events")
    async def events(request: Request) -> JSONResponse:
        def found(state: CalendarState, q: dict[str, str]) -> dict[str, Any]:
            rows = v.search(state, q.get("q", ""))
            return {"results": rows, "total": len(rows), "q": q.get("q", "")}

        return read(request, found)

    @main.get(API + "/events/{eid}")
    async def event(eid: str, request: Request) -> JSONResponse:
        def one(state: CalendarState, q: dict[str, str]) -> dict[str, Any]:
            zone = q.get("zone", "")
            if zone:
                tz(zone)
            return v.detail(state, st.find(state.events, eid, "event"), q.get("occ", ""), zone)

        return read(request, one)

    @main.post(API + "/events")
    async def create(request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            ev = _create(state, st.submitted(s, app, None, f))
            return {"record": ev.model_dump(), "message": f"Event created. Reference {ev.id}."}

        return await write(request, change)

    @main.put(API + "/events/{eid}")
    async def edit(eid: str, request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            ev = _own(state, eid)
            got, changed = _update(state, ev, _fields(st.submitted(s, app, eid, f), ev))
            return {
                "record": got.model_dump(),
                "message": f"Saved {eid}." if changed else "No changes to save.",
            }

        return await write(request, change)

    @main.delete(API + "/events/{eid}")
    async def delete(eid: str, request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            ev = _own(state, eid)
            state.events.remove(ev)
            return {"message": f"Deleted “{ev.title}”."}

        return await write(request, change)

    @main.post(API + "/events/{eid}/skip")
    async def skip(eid: str, request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            ev = _own(state, eid)
            occ = str(f.get("occ", ""))
            keys = [o["occ"] for o in v.occurrences(state, ev)]
            if ev.repeat == "none" or occ not in keys:
                raise st.Rejected("occ: not an occurrence of this series")
            if len(keys) == 1:
                raise st.Rejected("This is the last occurrence: delete the event instead.")
            _update(state, ev, {"skipped": sorted({*ev.skipped, occ})})
            return {"message": f"Removed the occurrence of {occ} from “{ev.title}”."}

        return await write(request, change)

    @main.get(API + "/invitations")
    async def invitations(request: Request) -> JSONResponse:
        def listed(state: CalendarState, q: dict[str, str]) -> dict[str, Any]:
            rows = []
            for inv in state.invitations:
                ev = st.find(state.events, inv.event, "event")
                first = v.occurrences(state, ev)[0]
                rows.append(
                    {
                        **inv.model_dump(),
                        "title": ev.title,
                        **{k: first[k] for k in ("date", "time", "label")},
                    }
                )
            return {
                "invitations": rows,
                "pending": sum(1 for i in state.invitations if i.status == "pending"),
            }

        return read(request, listed)

    @main.post(API + "/invitations/{iid}/{action}")
    async def reply(iid: str, action: str, request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            status = {"accept": "accepted", "decline": "declined"}.get(action)
            if status is None:
                raise LookupError(f"No action {action}.")
            inv = st.find(state.invitations, iid, "invitation")
            fields = st.submitted(s, app, iid, {"status": status})
            if inv.status != fields["status"]:
                at = state.invitations.index(inv)
                state.invitations[at] = inv.model_copy(update={**fields, "updated": st.now(state)})
            title = st.find(state.events, inv.event, "event").title
            return {"message": f"You {status} “{title}”."}

        return await write(request, change)

    @main.get(API + "/profile")
    async def profile(request: Request) -> JSONResponse:
        return read(
            request,
            lambda state, q: {
                "profile": state.profile[0].model_dump(),
                "zones": list(ZONE_NAMES.items()),
                "contacts": [c.model_dump() for c in state.contacts],
            },
        )

    @main.put(API + "/profile")
    async def set_profile(request: Request) -> JSONResponse:
        def change(s: Session, state: CalendarState, f: dict[str, Any]) -> dict[str, Any]:
            fields = st.submitted(s, app, "me", {"zone": f.get("zone")})
            try:
                tz(str(fields["zone"]))
            except ValueError as e:
                raise st.Rejected(str(e)) from None
            if state.profile[0].zone != fields["zone"]:
                state.profile[0] = state.profile[0].model_copy(update={"zone": fields["zone"]})
            return {"message": f"Your time zone is now {ZONE_NAMES[fields['zone']]}."}

        return await write(request, change)

    @main.get(API + "/recent")
    async def recent(request: Request) -> JSONResponse:
        def mine(state: CalendarState, q: dict[str, str]) -> dict[str, Any]:
            own = sorted((e for e in state.events if e.organizer == ME), key=lambda e: e.id, reverse=True)[:8]
            return {"events": [{"id": e.id, "title": e.title, "calendar": e.calendar, "repeat": e.repeat,
                                "count": e.count, **(v.occurrences(state, e) or [{}])[0]} for e in own]}  # fmt: skip

        return read(request, mine)

    @main.get(API + "/rooms")
    async def rooms(request: Request) -> JSONResponse:
        return read(request, lambda state, q: {"rooms": state.units})
