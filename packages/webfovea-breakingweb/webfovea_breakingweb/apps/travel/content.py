"""The stays a seed starts with: 6 cities x 10 properties (hotels, apartments, guesthouses,
hostels), 2-4 room types each, 2-6 guest reviews each, 12 of your bookings (past, upcoming,
cancelled) and 10 messages from the properties you booked.

Deterministic by the generator the engine hands over (`rng("app:travel", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the content
the server serves. Property names are unique over the site (an instruction names a stay by its
name); dates sit around the sites' "now", 2025-01-06 (engine/determinism.py EPOCH).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from webfovea_breakingweb.apps.travel.state import (
    AMENITIES,
    Booking,
    Message,
    Property,
    Review,
    Room,
    TravelState,
)
from webfovea_breakingweb.engine.determinism import stamp

CITIES = {
    "Lisbon": ("Alfama", "Baixa", "Belém", "Chiado", "Príncipe Real"),
    "Porto": ("Ribeira", "Cedofeita", "Foz do Douro", "Bonfim", "Baixa"),
    "Seville": ("Triana", "Santa Cruz", "Macarena", "Arenal", "Nervión"),
    "Valencia": ("Ruzafa", "El Carmen", "Cabanyal", "Benimaclet", "Ciutat Vella"),
    "Florence": ("Oltrarno", "Santa Croce", "San Marco", "Duomo", "San Frediano"),
    "Vienna": ("Innere Stadt", "Leopoldstadt", "Neubau", "Wieden", "Josefstadt"),
}  # fmt: skip
FIRST = ("Casa", "Villa", "Hotel", "Palacio", "Residence", "Maison", "Loft", "Hostal", "Quinta", "Suites")
SECOND = (
    "Azul", "do Rio", "Aurora", "Olivar", "Serena", "Lumen", "Miradouro", "Alegria", "Verde", "Sol Poente",
    "Marés", "Ciprés", "Arcos", "Magnolia", "Terraço", "Corvo", "Estrela", "Limoeiro", "Aldeia", "Bela Vista",
)  # fmt: skip
KINDS = ("Hotel", "Apartment", "Guesthouse", "Hostel")
ROOMS = (  # name, sleeps, beds, price factor
    ("Single Room", 1, "1 single bed", 0.7), ("Standard Double Room", 2, "1 double bed", 1.0),
    ("Twin Room", 2, "2 single beds", 1.0), ("Deluxe King Room", 2, "1 king bed", 1.45),
    ("Triple Room", 3, "3 single beds", 1.3), ("Family Suite", 4, "1 double bed and 2 single beds", 1.8),
    ("Two-Bedroom Apartment", 5, "2 double beds and 1 sofa bed", 2.2),
)  # fmt: skip
AUTHORS = (
    "Ines",
    "Marek",
    "Sofia",
    "Tom",
    "Aiko",
    "Luca",
    "Nadia",
    "Oskar",
    "Priya",
    "Jonas",
    "Clara",
    "Femi",
)
REVIEW_TITLES = (
    ("Wonderful stay", 9), ("Great location", 9), ("Good value", 8), ("Comfortable and clean", 8),
    ("Friendly staff", 9), ("Noisy at night", 6), ("Small room", 6), ("Would come back", 10),
)  # fmt: skip
REVIEW_TEXTS = (
    "The bed was comfortable and the breakfast generous.", "Close to everything, we walked everywhere.",
    "Check-in was quick and the staff gave great tips.", "The room was smaller than in the photos.",
    "Quiet street, spotless bathroom.", "The street gets loud on weekends.",
)  # fmt: skip
INBOX = (
    ("Your upcoming stay", "We look forward to welcoming you. Check-in is from 15:00; let us know your arrival time."),
    ("Parking at the property", "Parking is available nearby for 18 euros a day; please reserve it at the desk."),
    ("How was your stay?", "Thank you for staying with us. We would love to read your review."),
    ("Late check-in", "Our reception closes at 22:00. For a later arrival we leave the keys in a safe box."),
    ("Airport transfer", "We can arrange an airport transfer for 35 euros. Reply if you would like one."),
)  # fmt: skip
TODAY = date(2025, 1, 6)


def _names(r: random.Random) -> list[str]:
    pool = [f"{a} {b}" for a in FIRST for b in SECOND]
    r.shuffle(pool)
    return pool


def _property(r: random.Random, n: int, name: str, city: str) -> Property:
    kind = (
        r.choice(KINDS)
        if not name.startswith(("Hotel", "Hostal"))
        else ("Hotel" if name.startswith("Hotel") else "Guesthouse")
    )
    stars = {
        "Hotel": r.randint(3, 5),
        "Apartment": 0,
        "Guesthouse": r.randint(2, 3),
        "Hostel": r.randint(1, 2),
    }[kind]
    amenities = sorted(r.sample(AMENITIES, r.randint(2, 6)), key=AMENITIES.index)
    return Property(
        id=f"H-{n:04d}", name=name, city=city, district=r.choice(CITIES[city]), kind=kind,  # type: ignore[arg-type]
        stars=stars, rating=round(r.uniform(6.2, 9.7), 1), reviews=r.randint(40, 2400),
        distance_km=round(r.uniform(0.2, 6.5), 1), x=r.randint(6, 94), y=r.randint(8, 92),
        amenities=amenities, description=f"{'An' if kind == 'Apartment' else 'A'} {kind.lower()} in {city}, "
        f"{r.choice(('a short walk from the old town', 'near a metro stop', 'with a quiet courtyard', 'with city views'))}.",
    )  # fmt: skip


def _rooms(r: random.Random, p: Property, first: int) -> list[Room]:
    base = {"Hotel": 95, "Apartment": 80, "Guesthouse": 60, "Hostel": 35}[p.kind] + 12 * p.stars
    picks = sorted(r.sample(range(len(ROOMS)), r.randint(2, 4)))
    out = []
    for i, k in enumerate(picks):
        name, sleeps, beds, factor = ROOMS[k]
        out.append(
            Room(id=f"R-{first + i:04d}", property=p.id, name=name, sleeps=sleeps, beds=beds,
                 price=int(base * factor * r.uniform(0.85, 1.2)), refundable=r.random() < 0.6,
                 breakfast="breakfast" in p.amenities and r.random() < 0.7, units=r.randint(1, 4))
        )  # fmt: skip
    return out


def nights(check_in: str, check_out: str) -> int:
    return (date.fromisoformat(check_out) - date.fromisoformat(check_in)).days


def build(r: random.Random, seed: int) -> TravelState:
    state = TravelState()
    names = _names(r)
    n = 0
    for city in CITIES:
        for _ in range(10):
            n += 1
            p = _property(r, n, names.pop(), city)
            state.properties.append(p)
            state.rooms += _rooms(r, p, len(state.rooms) + 1)
            for _ in range(r.randint(2, 6)):
                title, score = r.choice(REVIEW_TITLES)
                state.reviews.append(
                    Review(id=f"V-{len(state.reviews) + 1:04d}", property=p.id, author=r.choice(AUTHORS),
                           score=max(1, min(10, score + r.randint(-1, 1))), title=title,
                           text=r.choice(REVIEW_TEXTS), created=stamp(-r.randint(2, 300) * 1440))
                )  # fmt: skip
    for city in CITIES:  # two featured stays per city on the home page
        for p in r.sample([x for x in state.properties if x.city == city], 2):
            p.featured = True
    for p in r.sample(state.properties, 4):
        p.saved = True
    _bookings(r, state)
    state.counter = len(state.bookings) + len(state.messages)
    # The legend seed/split_information shows when the pages name properties by code only.
    state.units = [{"id": p.id, "name": p.name} for p in state.properties]
    return state


def _bookings(r: random.Random, state: TravelState) -> None:
    """Five past stays (completed), five upcoming, two cancelled; a message from each of ten."""
    starts = [-70, -52, -40, -25, -12, 14, 23, 37, 51, 66, 30, 45]
    stays = r.sample(state.properties, len(starts))
    for i, (offset, p) in enumerate(zip(starts, stays, strict=True), start=1):
        room = r.choice([x for x in state.rooms if x.property == p.id and x.sleeps >= 2] or
                        [x for x in state.rooms if x.property == p.id])  # fmt: skip
        check_in = TODAY + timedelta(days=offset)
        length = r.randint(2, 5)
        status = "completed" if offset < 0 else ("cancelled" if i > 10 else "confirmed")
        total = room.price * length
        state.bookings.append(
            Booking(id=f"BK-{i:04d}", property=p.id, room=room.id, check_in=check_in.isoformat(),
                    check_out=(check_in + timedelta(days=length)).isoformat(), guests=min(2, room.sleeps), rooms=1,
                    guest_name=state.me.name, guest_email=state.me.email, total=total, status=status,  # type: ignore[arg-type]
                    cancel_reason="Change of plans" if status == "cancelled" else "",
                    refund=total if status == "cancelled" and room.refundable else 0,
                    created=stamp((offset - 60) * 1440))
        )  # fmt: skip
    for i, b in enumerate(state.bookings[:10], start=1):
        subject, body = (
            INBOX[2] if b.status == "completed" else r.choice([x for x in INBOX if x is not INBOX[2]])
        )
        p = next(x for x in state.properties if x.id == b.property)
        state.messages.append(
            Message(id=f"M-{i:04d}", folder="inbox", property=p.id, sender=p.name, subject=f"{subject} ({b.id})",
                    body=body, booking=b.id, created=stamp(-(11 - i) * 600), read=r.random() < 0.4)
        )  # fmt: skip
