"""Guided tours (Nordic Trails), a reservation in steps: find a tour (tour, date, people) →
the day's departures with their free seats → guest details → review → confirm; your
reservations, and their cancellation. Its own state (tours, departures, reservations), API,
page and task generator (docs/breakingweb.md, "The tour booking")."""

from __future__ import annotations

from webfovea_breakingweb.apps.booking.content import build
from webfovea_breakingweb.apps.booking.page import page
from webfovea_breakingweb.apps.booking.routes import routes
from webfovea_breakingweb.apps.booking.state import BookingState
from webfovea_breakingweb.apps.booking.tasks import PER_TEMPLATE, TEMPLATES
from webfovea_breakingweb.engine.generate import instantiate
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask


def tasks(seed: int) -> list[StatefulTask]:
    return instantiate(APP, seed, TEMPLATES, PER_TEMPLATE)


APP = AppSpec(
    name="booking",
    title="Tour bookings",
    path="/app/booking",
    lead="Find a guided tour, pick a departure with free seats, give the guest details and confirm.",
    summary="search → availability → guest details → review → confirm; your reservations",
    noun="reservation",
    state_model=BookingState,
    build=build,
    routes=routes,
    page=page,
    tasks=tasks,
)
