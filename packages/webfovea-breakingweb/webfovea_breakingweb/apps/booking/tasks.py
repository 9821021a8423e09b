"""The tour booking's task generator: templates instantiated from the seeded departures.

State: reserve (search → pick the departure → guest details → review → confirm: medium),
reserve the earliest departure of a day that still has room (medium), cancel a reservation
(easy). Retrieval: the free seats of a departure, the price for a party (easy). Tiers by a
person's actions (plan steps but the answer): easy < 6, medium 6–15, hard > 15.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.apps.booking.state import BookingState, Departure
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import (
    L,
    answer,
    any_fetch,
    click,
    fill,
    select,
    text_has,
    value_is,
    visible,
)

API = "/api/booking"
PER_TEMPLATE = 8
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
GUESTS = (("Mira Holm", "mira.holm@example.org"), ("Jonas Falk", "jonas@example.net"),
          ("Tove Lind", "tove.lind@example.com"), ("Lena Strand", "lena.s@example.org"))  # fmt: skip
Step = dict[str, Any]
Make = Callable[[BookingState, Any, int], StatefulTask | None]


def tier(plan: list[Step]) -> str:
    n = sum(1 for s in plan if s["op"] != "answer")
    return "easy" if n < 6 else "medium" if n <= 15 else "hard"


def _eur(cents: int) -> str:
    return f"€{cents / 100:.2f}"


def _task(tid: str, instruction: str, plan: list[Step], **kw: Any) -> StatefulTask:
    targets = kw.pop("targets")
    return StatefulTask(task_id=tid, app="booking", instruction=instruction + SIGN_IN, plan=plan, noise=[],
                        targets={"tier": tier(plan), "redo_from": 0, **targets}, **kw)  # fmt: skip


def search(state: BookingState, d: Departure, people: int) -> list[Step]:
    """Find a tour: the tour, the date, the party, Check availability (the last step reads it)."""
    name = next(t.name for t in state.tours if t.id == d.tour)
    return [
        click(L("#nav-search"), expect=visible(L("#b-check"))),
        select(L("#b-tour"), name, expect=value_is(L("#b-tour"), d.tour)),
        fill(L("#b-date"), d.date, expect=value_is(L("#b-date"), d.date)),
        fill(L("#b-people"), str(people), expect=value_is(L("#b-people"), str(people))),
        click(L("#b-check"), expect=text_has(L("#avail-info"), f"{name} on {d.date} for {people} people")),
    ]


def _bookable(state: BookingState, people: int) -> list[Departure]:
    return [d for d in state.departures if d.capacity - d.booked >= people]


def _name(state: BookingState, d: Departure) -> str:
    return next(t.name for t in state.tours if t.id == d.tour)


def _reserve(
    state: BookingState, d: Departure, people: int, guest: tuple[str, str], tid: str, text: str
) -> StatefulTask:
    rid = next_id(state.reservations, "B-")
    contact, email = guest
    plan = [
        *search(state, d, people),
        click(L(f'#avail tr[data-id="{d.id}"] .pick'), expect=visible(L("#g-contact"))),
        fill(L("#g-contact"), contact, expect=value_is(L("#g-contact"), contact)),
        fill(L("#g-email"), email, expect=value_is(L("#g-email"), email)),
        click(L("#g-review"), expect=visible(L("#g-confirm"))),
        click(L("#g-confirm"), expect=text_has(L("#toast"), rid)),
        answer(L("#toast .ref")),
    ]
    price = next(t.price for t in state.tours if t.id == d.tour)
    return _task(
        tid, f"{text} The contact is {contact}, email {email}. Report the reservation number.", plan,
        category="form interaction", failure_classes=["select", "fill", "date_input"],
        obligations=[
            {"entity": "reservations", "op": "create", "count": 1,
             "fields": {"departure": d.id, "people": people, "contact": contact, "email": email,
                        "total": people * price, "status": "confirmed"}},
            {"entity": "departures", "op": "update", "id": d.id, "fields": {"booked": d.booked + people}},
        ],
        targets={"main": ["POST", f"{API}/reservations"], "write": ["POST", f"{API}/reservations"],
                 "list": ["GET", f"{API}/reservations"], "submit": "#g-confirm", "submit_step": len(plan) - 2,
                 "form": True, "readback": text_has(L(f'#reservations tr[data-id="{rid}"]'), d.date),
                 "verify_path": "/app/booking?view=reservations"},
    )  # fmt: skip


def t_reserve(state: BookingState, r: Any, n: int) -> StatefulTask:
    people = r.randint(1, 4)
    d = r.choice(_bookable(state, people))
    return _reserve(state, d, people, r.choice(GUESTS), f"booking-reserve-{n:02d}",
                    f"In the Nordic Trails tour booking, reserve the {_name(state, d)} on {d.date} at {d.time} "
                    f"for {people} {'person' if people == 1 else 'people'}.")  # fmt: skip


def t_reserve_earliest(state: BookingState, r: Any, n: int) -> StatefulTask | None:
    """The earliest departure of the day with room for the party: the first one is full for it."""
    people = r.randint(2, 6)
    d0 = r.choice(state.departures)
    day = sorted(
        (d for d in state.departures if d.tour == d0.tour and d.date == d0.date), key=lambda d: d.time
    )
    if len(day) < 2 or day[0].capacity - day[0].booked >= people or day[1].capacity - day[1].booked < people:
        return None
    d = day[1]
    return _reserve(state, d, people, r.choice(GUESTS), f"booking-earliest-{n:02d}",
                    f"In the Nordic Trails tour booking, reserve the earliest {_name(state, d)} on {d.date} that "
                    f"still has room for {people} people.")  # fmt: skip


def t_cancel(state: BookingState, r: Any, n: int) -> StatefulTask:
    res = r.choice([x for x in state.reservations if x.status == "confirmed"])
    dep = next(d for d in state.departures if d.id == res.departure)
    row = f'#reservations tr[data-id="{res.id}"]'
    plan = [
        click(L("#nav-reservations"), expect=visible(L("#reservations"))),
        click(L(f"{row} .cancel"), expect=text_has(L(f"{row} td.status"), "cancelled")),
        answer(L(f"{row} td.id")),
    ]
    return _task(
        f"booking-cancel-{n:02d}", f"In the Nordic Trails tour booking, cancel the reservation for {res.contact} "
        f"({_name(state, dep)} on {res.date}) and nothing else. Report the reservation number.", plan,
        category="form interaction", failure_classes=[],
        obligations=[{"entity": "reservations", "op": "update", "id": res.id, "fields": {"status": "cancelled"}},
                     {"entity": "departures", "op": "update", "id": dep.id, "fields": {"booked": dep.booked - res.people}}],
        targets={"main": ["POST", f"{API}/reservations/{res.id}/cancel"], "write": ["POST", f"{API}/reservations/{res.id}/cancel"],
                 "list": ["GET", f"{API}/reservations"], "submit": f"{row} .cancel", "submit_step": 1,
                 "readback": text_has(L(f"{row} td.status"), "cancelled"), "verify_path": "/app/booking?view=reservations"},
    )  # fmt: skip


def _retrieval(
    state: BookingState, d: Departure, people: int, tid: str, text: str, cell: str, value: str
) -> StatefulTask:
    plan = [*search(state, d, people), answer(L(f'#avail tr[data-id="{d.id}"] td.{cell}'))]
    return _task(
        tid, text, plan, category="complete data retrieval", failure_classes=["select", "fill", "date_input"],
        state_changing=False, answer=value,
        obligations=[{"request": {**any_fetch(f"{API}/availability", "the availability of the asked tour and day",
                                              tour=d.tour, date=d.date), "status": {"lt": 400}}}],
        targets={"main": ["GET", f"{API}/availability"], "submit": "#b-check", "submit_step": len(plan) - 2, "form": True},
    )  # fmt: skip


def t_seats(state: BookingState, r: Any, n: int) -> StatefulTask:
    d = r.choice(state.departures)
    return _retrieval(state, d, 1, f"booking-seats-{n:02d}",
                      f"In the Nordic Trails tour booking, how many seats are still free on the {_name(state, d)} "
                      f"at {d.time} on {d.date}? Report the number.", "free", str(d.capacity - d.booked))  # fmt: skip


def t_price(state: BookingState, r: Any, n: int) -> StatefulTask:
    people = r.randint(2, 6)
    d = r.choice(_bookable(state, people))
    price = next(t.price for t in state.tours if t.id == d.tour)
    return _retrieval(state, d, people, f"booking-price-{n:02d}",
                      f"In the Nordic Trails tour booking, what would {people} people pay in all for the "
                      f"{_name(state, d)} at {d.time} on {d.date}? Report the amount.", "total", _eur(people * price))  # fmt: skip


TEMPLATES: dict[str, Make] = {
    "reserve": t_reserve,
    "earliest": t_reserve_earliest,
    "cancel": t_cancel,
    "seats": t_seats,
    "price": t_price,
}
