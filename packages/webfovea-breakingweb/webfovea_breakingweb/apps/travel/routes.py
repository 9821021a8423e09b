"""The travel site's public API under /api/env/travel (seed 003 A.1: the only surface the page
and the agent touch). Reads return the typed records as JSON; writes run in a transaction
(engine/routes.py), so a refusal leaves nothing half-written and the clock advances once.

Search reads what a person gives: a destination (city, district or stay name), dates, guests
and rooms; filters narrow it (price per night, review score, amenities, free cancellation,
stars) and a sort orders it. A room fits when its units free on those dates cover the rooms
asked and together they sleep the guests; a stay shows the cheapest room that fits. Bookings
check the same availability, so a room cannot be booked twice over its units.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.travel.avail import Ask, fitting, parse_ask, room_view
from webfovea_breakingweb.apps.travel.content import nights
from webfovea_breakingweb.apps.travel.state import CANCEL_REASONS, Booking, Message, Review, TravelState
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

SORTS = ("recommended", "price", "rating", "distance")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewBooking(_Body):
    room: str
    check_in: str
    check_out: str
    guests: int = Field(ge=1, le=16)
    rooms: int = Field(default=1, ge=1, le=4)
    guest_name: str = Field(min_length=2, max_length=80)
    guest_email: str = Field(min_length=3, max_length=120, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    requests: str = Field(default="", max_length=500)


class Change(_Body):
    check_in: str
    check_out: str
    guests: int = Field(ge=1, le=16)


class CancelBody(_Body):
    reason: str


class ReviewBody(_Body):
    score: int = Field(ge=1, le=10)
    title: str = Field(min_length=1, max_length=120)
    text: str = Field(default="", max_length=2000)


class SaveBody(_Body):
    saved: bool


class NewMessage(_Body):
    property: str
    booking: str | None = None
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)


def results(state: TravelState, q: dict[str, str]) -> dict[str, Any]:
    """The search page's answer: the stays that match, each with the cheapest fitting room."""
    ask = parse_ask(state, q)
    dest = q.get("dest", "").strip().lower()
    if not dest:
        raise st.Rejected("Enter a destination: a city, a district or the name of a stay.")
    wanted = [a for a in q.get("amenities", "").split(",") if a]
    sort = q.get("sort", "recommended")
    if sort not in SORTS:
        raise st.Rejected(f"unknown sort {sort!r}; one of {', '.join(SORTS)}")
    lo, hi = _number(q, "min_price"), _number(q, "max_price")
    min_rating, stars = _number(q, "min_rating"), _number(q, "stars")
    out = []
    for p in state.properties:
        if dest not in f"{p.city}|{p.district}|{p.name}".lower():
            continue
        rooms = fitting(state, p.id, ask, refundable_only=q.get("free_cancel") == "1")
        if not rooms or any(a not in p.amenities for a in wanted):
            continue
        best = min(rooms, key=lambda r: (r.price, r.id))
        price = best.price * ask.rooms
        if (lo is not None and price < lo) or (hi is not None and price > hi):
            continue
        if (min_rating is not None and p.rating < min_rating) or (stars is not None and p.stars < stars):
            continue
        out.append({**p.model_dump(), "price": price, "room": best.name, "free_cancellation": best.refundable,
                    "total": price * ask.nights if ask.nights else None})  # fmt: skip
    if sort == "price":
        out.sort(key=lambda x: (x["price"], x["id"]))
    elif sort == "rating":
        out.sort(key=lambda x: (-x["rating"], x["id"]))
    elif sort == "distance":
        out.sort(key=lambda x: (x["distance_km"], x["id"]))
    return {"results": out, "total": len(out), "nights": ask.nights}


def _number(q: dict[str, str], key: str) -> float | None:
    raw = q.get(key, "").strip()
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        raise st.Rejected(f"{key} must be a number, not {raw!r}") from None


def _booking_view(state: TravelState, b: Booking) -> dict[str, Any]:
    p = st.find(state.properties, b.property, "stay")
    room = st.find(state.rooms, b.room, "room")
    mine = next((v.model_dump() for v in state.reviews if v.booking == b.id), None)
    return {**b.model_dump(), "property_name": p.name, "city": p.city, "room_name": room.name,
            "refundable": room.refundable, "nights": nights(b.check_in, b.check_out), "reviewed": mine is not None,
            "review": mine}  # fmt: skip


def _upcoming(state: TravelState, bid: str) -> Booking:
    b = st.find(state.bookings, bid, "booking")
    if b.status != "confirmed" or b.check_in < state.today:
        raise st.Rejected(
            f"Booking {bid} is {b.status if b.status != 'confirmed' else 'in the past'}: it cannot be changed."
        )
    return b


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/home")
    def home(c: Call) -> dict[str, Any]:
        s: TravelState = c.state
        cities = sorted({p.city for p in s.properties})
        return {"featured": [p.model_dump() for p in s.properties if p.featured], "today": s.today,
                "destinations": [{"city": x, "stays": sum(1 for p in s.properties if p.city == x)} for x in cities]}  # fmt: skip

    @r.read("/search")
    def search(c: Call) -> dict[str, Any]:
        return results(c.state, c.query)

    @r.read("/properties/{hid}")
    def stay(c: Call, hid: str) -> dict[str, Any]:
        s: TravelState = c.state
        p = st.find(s.properties, hid, "stay")
        ask = parse_ask(s, c.query)
        rooms = [room_view(s, x, ask) for x in s.rooms if x.property == hid]
        reviews = sorted(
            (v.model_dump() for v in s.reviews if v.property == hid), key=lambda v: v["created"], reverse=True
        )
        return {"property": p.model_dump(), "rooms": rooms, "reviews": reviews, "nights": ask.nights}

    @r.read("/rooms/{rid}")
    def offer(c: Call, rid: str) -> dict[str, Any]:
        s: TravelState = c.state
        room = st.find(s.rooms, rid, "room")
        ask = parse_ask(s, c.query, required=True)
        return {"property": st.find(s.properties, room.property, "stay").model_dump(),
                "room": room_view(s, room, ask), "nights": ask.nights}  # fmt: skip

    @r.write("/properties/{hid}/save", body=SaveBody)
    def save(c: Call, hid: str) -> dict[str, Any]:
        p = st.find(c.state.properties, hid, "stay")
        p.saved = c.body.saved
        return {"message": f"{p.name} {'saved to' if p.saved else 'removed from'} your wishlist."}

    @r.read("/saved")
    def saved(c: Call) -> dict[str, Any]:
        return {"properties": [p.model_dump() for p in c.state.properties if p.saved]}

    @r.write("/bookings", body=NewBooking)
    def book(c: Call) -> dict[str, Any]:
        s: TravelState = c.state
        f = c.submitted(None, c.body.model_dump())
        room = st.find(s.rooms, f["room"], "room")
        ask = parse_ask(s, {"checkin": f["check_in"], "checkout": f["check_out"], "guests": str(f["guests"]),
                            "rooms": str(f["rooms"])}, required=True)  # fmt: skip
        if room not in fitting(s, room.property, ask):
            raise st.Rejected(_no_fit(s, room, ask))
        b = Booking(id=st.next_id(s.bookings, "BK-"), property=room.property, total=room.price * ask.nights * ask.rooms,
                    created=st.now(s), **f)  # fmt: skip
        s.bookings.append(b)
        return {
            "message": f"Booked {room.name} at {st.find(s.properties, room.property, 'stay').name}. Confirmation number",
            "id": b.id,
        }

    @r.read("/bookings")
    def bookings(c: Call) -> dict[str, Any]:
        s: TravelState = c.state
        views = [_booking_view(s, b) for b in sorted(s.bookings, key=lambda b: (b.check_in, b.id))]
        return {
            "upcoming": [v for v in views if v["status"] == "confirmed" and v["check_out"] >= s.today],
            "past": [v for v in reversed(views) if v["status"] == "completed" or (v["status"] == "confirmed" and v["check_out"] < s.today)],
            "cancelled": [v for v in views if v["status"] == "cancelled"],
            "reasons": list(CANCEL_REASONS),
        }  # fmt: skip

    @r.read("/bookings/{bid}")
    def booking(c: Call, bid: str) -> dict[str, Any]:
        return {
            "booking": _booking_view(c.state, st.find(c.state.bookings, bid, "booking")),
            "today": c.state.today,
        }

    @r.write("/bookings/{bid}/modify", body=Change)
    def modify(c: Call, bid: str) -> dict[str, Any]:
        s: TravelState = c.state
        b = _upcoming(s, bid)
        f = c.submitted(bid, c.body.model_dump())
        room = st.find(s.rooms, b.room, "room")
        ask = parse_ask(s, {"checkin": f["check_in"], "checkout": f["check_out"], "guests": str(f["guests"]),
                            "rooms": str(b.rooms)}, required=True)  # fmt: skip
        if room not in fitting(s, room.property, ask, ignore=bid):
            raise st.Rejected(_no_fit(s, room, ask))
        b.check_in, b.check_out, b.guests = f["check_in"], f["check_out"], f["guests"]
        b.total = room.price * ask.nights * b.rooms
        return {
            "message": f"Booking {bid} changed: {b.check_in} to {b.check_out}, {b.guests} guests, {b.total} EUR."
        }

    @r.write("/bookings/{bid}/cancel", body=CancelBody)
    def cancel(c: Call, bid: str) -> dict[str, Any]:
        s: TravelState = c.state
        if c.body.reason not in CANCEL_REASONS:
            raise st.Rejected(f"Choose a reason: {', '.join(CANCEL_REASONS)}.")
        b = _upcoming(s, bid)
        b.status, b.cancel_reason = "cancelled", c.body.reason
        b.refund = b.total if st.find(s.rooms, b.room, "room").refundable else 0
        return {"message": f"Booking {bid} cancelled. Refund: {b.refund} EUR."}

    @r.write("/bookings/{bid}/review", body=ReviewBody)
    def review(c: Call, bid: str) -> dict[str, Any]:
        s: TravelState = c.state
        b = st.find(s.bookings, bid, "booking")
        if b.status != "completed":
            raise st.Rejected(f"You can review a stay after it ends; booking {bid} is {b.status}.")
        held = next((v for v in s.reviews if v.booking == bid), None)
        if held is not None:  # your review of this stay, edited (as the real sites let you)
            f = c.submitted(held.id, c.body.model_dump())
            held.score, held.title, held.text = f["score"], f["title"], f["text"]
            return {"message": "Your review was updated. Reference", "id": held.id}
        f = c.submitted(None, c.body.model_dump())
        v = Review(id=st.next_id(s.reviews, "V-"), property=b.property, author=s.me.name.split()[0], created=st.now(s),
                   booking=bid, **f)  # fmt: skip
        s.reviews.append(v)
        return {"message": "Thank you for your review. Reference", "id": v.id}

    @r.read("/messages")
    def messages(c: Call) -> dict[str, Any]:
        s: TravelState = c.state
        folder = c.query.get("folder", "inbox")
        names = {p.id: p.name for p in s.properties}
        got = [
            {**m.model_dump(), "property_name": names.get(m.property, "")}
            for m in reversed(s.messages)
            if m.folder == folder
        ]
        return {"messages": got,
                "unread": sum(1 for m in s.messages if m.folder == "inbox" and not m.read)}  # fmt: skip

    @r.write("/messages/{mid}/read", body=LENIENT)
    def read_message(c: Call, mid: str) -> dict[str, Any]:
        st.find(c.state.messages, mid, "message").read = True
        return {}

    @r.write("/messages", body=NewMessage)
    def send(c: Call) -> dict[str, Any]:
        s: TravelState = c.state
        f = c.submitted(None, c.body.model_dump())
        p = st.find(s.properties, f["property"], "stay")
        if f["booking"] is not None and st.find(s.bookings, f["booking"], "booking").property != p.id:
            raise st.Rejected(f"Booking {f['booking']} is not at {p.name}.")
        m = Message(
            id=st.next_id(s.messages, "M-"),
            folder="sent",
            sender=s.me.name,
            created=st.now(s),
            read=True,
            **f,
        )
        s.messages.append(m)
        return {"message": f"Message sent to {p.name}. Reference", "id": m.id}


def _no_fit(state: TravelState, room: Any, ask: Ask) -> str:
    if room.sleeps * ask.rooms < ask.guests:
        return f"{room.name} sleeps {room.sleeps}: {ask.rooms} of them cannot take {ask.guests} guests."
    return f"{room.name} is not available from {ask.check_in} to {ask.check_out}."
