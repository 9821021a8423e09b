"""The calendar a seed starts with: ~70 of your own events over March and April 2025 (some
recurring, some scheduled in another time zone), ~24 invitations from colleagues (pending,
accepted, declined), six rooms, a dozen contacts. Deterministic by the generator the engine
hands over (one per seed). Titles are unique ("Topic kind"), so an instruction can name one."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from webfovea_breakingweb.apps.calendar.state import (
    CALENDARS,
    ME,
    Calendar,
    CalendarState,
    Contact,
    Event,
    Invitation,
    Profile,
)
from webfovea_breakingweb.apps.calendar.times import HOME, to_utc
from webfovea_breakingweb.engine.determinism import stamp

TOPICS = ("Budget", "Roadmap", "Onboarding", "Pricing", "Security", "Release", "Vendor", "Design",
          "Research", "Marketing", "Support", "Analytics", "Training", "Hiring", "Partner", "Archive")  # fmt: skip
KINDS = ("review", "sync", "workshop", "planning", "check-in", "retro", "briefing", "demo")
PERSONAL = ("Dentist appointment", "Parents evening", "Car service", "Gym with friends", "Piano lesson",
            "Tax advisor call", "Haircut booking", "Flat viewing")  # fmt: skip
PLACES = ("Storgata 5", "City centre", "Grünerløkka", "Majorstuen", "Online")
ROOMS = (
    ("B2-14", "Fjord room (2nd floor)"),
    ("B2-07", "Harbour room (2nd floor)"),
    ("B3-01", "Summit room (3rd floor)"),
    ("B1-22", "Library (ground floor)"),
    ("B4-10", "Studio (4th floor)"),
    ("B3-15", "Garden room (3rd floor)"),
)
PEOPLE = ("Ada Berg", "Ola Nord", "Kari Vik", "Per Lunde", "Siri Dahl", "Jon Moe", "Liv Aas",
          "Nils Ek", "Mira Holm", "Emma Stone", "Kenji Sato", "Rosa Diaz")  # fmt: skip
ABROAD = ("America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles")
OWN, INVITES = 70, 24


def _day(r: random.Random) -> date:
    """A weekday in March or April 2025."""
    while True:
        d = date(2025, 3, 3) + timedelta(days=r.randrange(59))
        if d.weekday() < 5:
            return d


def build(r: random.Random, seed: int) -> CalendarState:
    state = CalendarState()
    state.profile = [Profile(id="me", name="Analyst", zone=HOME)]
    state.calendars = [Calendar(id=i, name=n, color=c) for i, n, c in CALENDARS]
    state.contacts = [
        Contact(id=f"c-{n.split()[0].lower()}", name=n, email=f"{n.split()[0].lower()}@portal.example")
        for n in PEOPLE
    ]
    state.units = [{"id": code, "name": name} for code, name in ROOMS]
    titles = [f"{t} {k}" for t in TOPICS for k in KINDS]
    r.shuffle(titles)
    personal = list(PERSONAL)
    r.shuffle(personal)
    when = 0
    for i in range(OWN + INVITES):
        invited = i >= OWN
        cal = (
            "team" if invited and r.random() < 0.4 else r.choices(("work", "team", "personal"), (5, 3, 2))[0]
        )
        title = personal.pop() if cal == "personal" and personal and not invited else titles.pop()
        zone = r.choice(ABROAD) if r.random() < (0.35 if invited else 0.15) else HOME
        hour = r.randint(9, 15) if zone == HOME else r.choice((8, 9, 10, 16, 17))
        start = datetime.combine(_day(r), datetime.min.time()).replace(hour=hour, minute=r.choice((0, 0, 30)))
        repeat, count = "none", 1
        if not invited and i % 9 == 4:
            repeat, count = r.choice((("weekly", r.randint(5, 8)), ("daily", 5), ("monthly", 2)))
            start = start.replace(day=max(3, min(start.day, 14)), month=3)
            while start.weekday() >= 5:
                start += timedelta(days=1)
        when += 1
        event = Event(
            id=f"E-{i + 1:04d}",
            title=title,
            calendar=cal,  # type: ignore[arg-type]
            start=to_utc(start, zone),
            minutes=r.choice((30, 30, 45, 60, 60, 90)),
            zone=zone,
            room=r.choice(ROOMS)[0] if cal != "personal" and zone == HOME else "",
            location=r.choice(PLACES) if cal == "personal" else "",
            organizer=r.choice(PEOPLE) if invited else ME,
            attendees=sorted(r.sample([c.id for c in state.contacts], r.randint(0, 3))),
            repeat=repeat,  # type: ignore[arg-type]
            count=count,
            description="",
            created=stamp(-10000 + when),
            updated=stamp(-10000 + when),
        )
        state.events.append(event)
        if invited:
            status = r.choices(("pending", "accepted", "declined"), (11, 8, 5))[0]
            received = stamp(-9000 + r.randrange(6000))
            state.invitations.append(
                Invitation(
                    id="",
                    event=event.id,
                    sender=event.organizer,
                    status=status,  # type: ignore[arg-type]
                    received=received,
                    created=received,
                    updated=received,
                )  # fmt: skip
            )
    # The invitations list shows them as stored: newest first.
    state.invitations.sort(key=lambda x: (x.received, x.event), reverse=True)
    for n, inv in enumerate(state.invitations, 1):
        inv.id = f"I-{n:04d}"
    state.counter = len(state.events)
    return state
