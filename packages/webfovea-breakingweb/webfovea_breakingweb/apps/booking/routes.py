"""The tour booking's JSON API (under /api/booking): tours, the availability of a tour on a
date for a number of people, a review of the reservation (validates, changes nothing), the
reservation (the only write that books seats), your reservations and their cancellation.
Writes go through engine/store.py (save hooks, one transaction, validation)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from webfovea_breakingweb.apps.booking.state import BookingState, Reservation
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.routes import AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore


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
    r = AppRoutes(app, main, store)

    @r.read("/tours")
    def tours(c: Call) -> dict[str, Any]:
        return {"tours": [t.model_dump() for t in c.state.tours]}

    @r.read("/availability")
    def free_seats(c: Call) -> dict[str, Any]:
        return availability(c.state, c.query)

    @r.read("/reservations")
    def reservations(c: Call) -> dict[str, Any]:
        return {"reservations": [x.model_dump() for x in reversed(c.state.reservations)]}

    @r.write("/reservations/review", transact=False)  # checks the form, changes nothing
    def review(c: Call) -> dict[str, Any]:
        return {"review": _review(c.state, c.body)}

    @r.write("/reservations")
    def reserve(c: Call) -> dict[str, Any]:
        return _reserve(c.state, c.submitted())

    @r.write("/reservations/{rid}/cancel", body=None)
    def cancel(c: Call, rid: str) -> dict[str, Any]:
        return _cancel(c.state, rid)
