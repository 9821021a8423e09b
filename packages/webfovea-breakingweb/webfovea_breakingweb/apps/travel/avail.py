"""What a person asks the travel site for (dates, guests, rooms) and which rooms answer it.

A room's free units on a stay's dates are its units less your confirmed bookings of it that
overlap them (a check-out day is free for the next check-in, as hotels count nights). Without
dates a search shows every room that sleeps the party, priced per night, as real sites do
before you pick dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from webfovea_breakingweb.apps.travel.state import Room, TravelState
from webfovea_breakingweb.engine.store import Rejected

MAX_NIGHTS = 30


@dataclass(frozen=True)
class Ask:
    check_in: str  # "" without dates
    check_out: str
    guests: int
    rooms: int

    @property
    def nights(self) -> int:
        if not self.check_in:
            return 0
        return (date.fromisoformat(self.check_out) - date.fromisoformat(self.check_in)).days


def _day(raw: str, what: str) -> date:
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise Rejected(f"{what} must be a date (YYYY-MM-DD), not {raw!r}.") from None


def _count(q: dict[str, str], key: str, default: int, most: int) -> int:
    raw = q.get(key, "").strip() or str(default)
    if not raw.isdigit() or not 1 <= int(raw) <= most:
        raise Rejected(f"{key} must be a whole number from 1 to {most}, not {raw!r}.")
    return int(raw)


def parse_ask(state: TravelState, q: dict[str, str], *, required: bool = False) -> Ask:
    """The dates, guests and rooms of a query; a clear refusal for dates out of order or past."""
    check_in, check_out = q.get("checkin", "").strip(), q.get("checkout", "").strip()
    guests, rooms = _count(q, "guests", 2, 16), _count(q, "rooms", 1, 4)
    if rooms > guests:
        raise Rejected(f"{rooms} rooms need at least {rooms} guests.")
    if not check_in and not check_out and not required:
        return Ask("", "", guests, rooms)
    if not check_in or not check_out:
        raise Rejected("Choose both a check-in and a check-out date.")
    a, b = _day(check_in, "Check-in"), _day(check_out, "Check-out")
    if a < date.fromisoformat(state.today):
        raise Rejected(f"Check-in {check_in} is in the past (today is {state.today}).")
    if not 1 <= (b - a).days <= MAX_NIGHTS:
        raise Rejected(f"Check-out must be 1 to {MAX_NIGHTS} nights after check-in.")
    return Ask(a.isoformat(), b.isoformat(), guests, rooms)


def free_units(state: TravelState, room: Room, ask: Ask, ignore: str | None = None) -> int:
    if not ask.check_in:
        return room.units
    taken = sum(
        b.rooms for b in state.bookings
        if b.room == room.id and b.status == "confirmed" and b.id != ignore
        and b.check_in < ask.check_out and ask.check_in < b.check_out
    )  # fmt: skip
    return room.units - taken


def fitting(
    state: TravelState, hid: str, ask: Ask, *, refundable_only: bool = False, ignore: str | None = None
) -> list[Room]:
    """The stay's rooms that take the party on those dates (`ignore`: a booking being changed)."""
    return [
        r for r in state.rooms
        if r.property == hid and r.sleeps * ask.rooms >= ask.guests and free_units(state, r, ask, ignore) >= ask.rooms
        and (r.refundable or not refundable_only)
    ]  # fmt: skip


def room_view(state: TravelState, room: Room, ask: Ask) -> dict[str, Any]:
    free = free_units(state, room, ask)
    fits = room.sleeps * ask.rooms >= ask.guests and free >= ask.rooms
    return {**room.model_dump(), "free": free, "fits": fits,
            "total": room.price * ask.nights * ask.rooms if ask.nights else None}  # fmt: skip
