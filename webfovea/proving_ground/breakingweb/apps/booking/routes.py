"""The tour booking's JSON API (under /api/booking): tours, the availability of a tour on a
date for a number of people, a review of the reservation (validates, changes nothing), the
reservation (the only write that books seats), your reservations and their cancellation.
Writes go through engine/store.py (save hooks, one transaction, validation)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from webfovea.proving_ground.breakingweb.apps.booking.state import BookingState, Reservation
from webfovea.proving_ground.breakingweb.engine import store as st
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec
from webfovea.proving_ground.sessions import SessionStore


def availability(state: BookingState, q: dict[str, str]) -> dict[str, Any]:
    tour = st.find(state.tours, q.get("tour", ""), "tour")
    people = int(q["people"]) if q.get("people", "").isdigit() else 1
    rows = [d for d in state.departures if d.tour == tour.id and d.date == q.get("date")]
    return {
        "tour": tour.model_dump(),
        "date": q.get("date", ""),
        "people": people,
        "departures": [
            {"id": d.id, "time": d.time, "free": d.capacity - d.booked, "total": people * tour.price,
             "ok": d.capacity - d.booked >= people}
            for d in sorted(rows, key=lambda d: d.time)
        ],
    }  # fmt: skip


def _review(state: BookingState, f: dict[str, Any]) -> dict[str, Any]:
    dep = st.find(state.departures, str(f.get("departure")), "departure")
    tour = st.find(state.tours, dep.tour, "tour")
    people = f.get("people")
    if not isinstance(people, int) or not 1 <= people <= 12:
        raise st.Rejected("people: between 1 and 12")
    if dep.capacity - dep.booked < people:
        raise st.Rejected(f"Only {dep.capacity - dep.booked} seats are left on this departure.")
    contact, email = str(f.get("contact", "")).strip(), str(f.get("email", "")).strip()
    if len(contact) < 2:
        raise st.Rejected("contact: enter the contact's name")
    if "@" not in email:
        raise st.Rejected("email: enter an email address")
    return {"departure": dep.id, "tour": tour.id, "tour_name": tour.name, "date": dep.date, "time": dep.time,
            "people": people, "contact": contact, "email": email, "total": people * tour.price}  # fmt: skip


def _reserve(state: BookingState, f: dict[str, Any]) -> dict[str, Any]:
    r = _review(state, f)
    res = Reservation(id=st.next_id(state.reservations, "B-"),
                      **{k: r[k] for k in ("departure", "tour", "date", "time", "people", "contact", "email", "total")})  # fmt: skip
    state.reservations.append(res)
    st.find(state.departures, res.departure, "departure").booked += res.people
    return {"message": "Reserved. Reference", "id": res.id}


def _cancel(state: BookingState, rid: str) -> dict[str, Any]:
    res = st.find(state.reservations, rid, "reservation")
    if res.status == "cancelled":
        raise st.Rejected(f"Reservation {rid} is already cancelled.")
    res.status = "cancelled"
    st.find(state.departures, res.departure, "departure").booked -= res.people
    return {"message": f"Reservation {rid} cancelled.", "id": rid}


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    api = app.api

    async def _ctx(request: Request, write: bool) -> Any:
        s = st.session_for(request, store, app)
        if isinstance(s, JSONResponse) or not write:
            return s, {}
        body = await st.body_of(request)
        if isinstance(body, JSONResponse):
            return body, {}
        return s, st.submitted(s, app, None, body)

    def _read(path: str, view: Any) -> None:
        async def handler(request: Request) -> JSONResponse:
            s, _ = await _ctx(request, False)
            if isinstance(s, JSONResponse):
                return s
            try:
                return JSONResponse({"ok": True, **view(s.state, dict(request.query_params))})
            except LookupError as e:
                return st.error(str(e).strip("'\""), 404)

        main.add_api_route(api + path, handler, methods=["GET"])

    _read("/tours", lambda s, q: {"tours": [t.model_dump() for t in s.tours]})
    _read("/availability", availability)
    _read("/reservations", lambda s, q: {"reservations": [r.model_dump() for r in reversed(s.reservations)]})

    @main.post(api + "/reservations/review")
    async def review(request: Request) -> JSONResponse:
        s, _ = await _ctx(request, False)
        if isinstance(s, JSONResponse):
            return s
        body = await st.body_of(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            return JSONResponse({"ok": True, "review": _review(s.state, body)})
        except st.Rejected as e:
            return st.error(str(e), e.status)
        except LookupError as e:
            return st.error(str(e).strip("'\""), 404)

    @main.post(api + "/reservations")
    async def reserve(request: Request) -> JSONResponse:
        s, f = await _ctx(request, True)
        if isinstance(s, JSONResponse):
            return s
        return st.answer(s, lambda state: _reserve(state, f))

    @main.post(api + "/reservations/{rid}/cancel")
    async def cancel(rid: str, request: Request) -> JSONResponse:
        s, _ = await _ctx(request, False)
        if isinstance(s, JSONResponse):
            return s
        return st.answer(s, lambda state: _cancel(state, rid))
