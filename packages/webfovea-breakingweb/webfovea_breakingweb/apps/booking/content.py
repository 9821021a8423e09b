"""The seeded tours: five tours, two departures a day each over June 2025 with seats partly
(sometimes fully) taken, and three reservations you made earlier."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.booking.state import BookingState, Departure, Reservation, Tour

TOURS = (  # id, name, price per person (cents), minutes
    ("fjord", "Fjord cruise", 4900, 180),
    ("fjord-x", "Fjord cruise (express)", 6900, 90),
    ("glacier", "Glacier hike", 8900, 300),
    ("city", "City walk", 2500, 120),
    ("museum", "Museum pass", 1900, 240),
)
TIMES = ("09:00", "11:30", "14:00", "16:30")
DAYS = [f"2025-06-{d:02d}" for d in range(2, 30)]
EARLIER = (("city", "Ada Berg", "ada.berg@example.org"), ("glacier", "Ola Nord", "ola@example.net"),
           ("museum", "Kari Vik", "kari.vik@example.com"))  # fmt: skip


def build(r: random.Random, seed: int) -> BookingState:
    state = BookingState(tours=[Tour(id=t, name=n, price=p, minutes=m) for t, n, p, m in TOURS])
    for tour, *_ in TOURS:
        times = sorted(r.sample(TIMES, 2))
        for day in DAYS:
            for time in times:
                cap = r.choice((8, 12, 16, 20))
                booked = cap if r.random() < 0.12 else r.randint(0, cap - 1)
                state.departures.append(
                    Departure(
                        id=f"D-{len(state.departures) + 1:04d}",
                        tour=tour,
                        date=day,
                        time=time,
                        capacity=cap,
                        booked=booked,
                    )  # fmt: skip
                )
    price = {t.id: t.price for t in state.tours}
    for n, (tour, contact, email) in enumerate(EARLIER, 1):
        dep = r.choice([d for d in state.departures if d.tour == tour and d.capacity - d.booked >= 4])
        people = r.randint(1, 3)
        dep.booked += people
        state.reservations.append(
            Reservation(
                id=f"B-{n:04d}",
                departure=dep.id,
                tour=tour,
                date=dep.date,
                time=dep.time,
                people=people,
                contact=contact,
                email=email,
                total=people * price[tour],
            )  # fmt: skip
        )
    state.counter = len(state.reservations)
    return state
