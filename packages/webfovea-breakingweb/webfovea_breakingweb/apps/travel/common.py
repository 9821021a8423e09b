"""What the travel site's task templates share: finding instances in the seeded site (stays
with a free room on given dates, trips in a given state) and building a `StatefulTask` with its
five-scale tier and the targets the families aim at."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from webfovea_breakingweb.apps.travel.avail import Ask, fitting
from webfovea_breakingweb.apps.travel.state import Booking, Property, Room, TravelState
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here
from webfovea_proving_ground.plan import Step

API = "/api/env/travel"
PAGE = "/env/travel"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
GUESTS = (
    ("Robin Vale", "robin.vale@example.com"), ("Mira Holt", "mira.holt@example.com"),
    ("Jonas Weber", "jonas.weber@example.com"), ("Ana Sousa", "ana.sousa@example.com"),
    ("Kenji Mori", "kenji.mori@example.com"),
)  # fmt: skip
REQUESTS = ("A quiet room on a high floor, please.", "We arrive late, around 23:00.", "A cot for our baby, please.",
            "Twin beds if possible.", "Early check-in if possible.")  # fmt: skip
TODAY = date(2025, 1, 6)


KIT = kit.TaskKit("travel", PAGE, SIGN_IN)
write_targets = KIT.write_targets


def stay_of(state: TravelState, hid: str) -> Property:
    return next(p for p in state.properties if p.id == hid)


def room_of(state: TravelState, rid: str) -> Room:
    return next(r for r in state.rooms if r.id == rid)


def trips(state: TravelState, status: str) -> list[Booking]:
    return [b for b in state.bookings if b.status == status]


def dates(r: random.Random, *, lo: int = 20, hi: int = 110) -> tuple[str, str]:
    start = TODAY + timedelta(days=r.randint(lo, hi))
    return start.isoformat(), (start + timedelta(days=r.randint(2, 5))).isoformat()


def offer(
    state: TravelState, r: random.Random, guests: int = 2, rooms: int = 1
) -> tuple[Property, Room, Ask] | None:
    """A stay and a room of it that take the party on some dates (None: this draw does not fit)."""
    p = r.choice(state.properties)
    check_in, check_out = dates(r)
    ask = Ask(check_in, check_out, guests, rooms)
    fits = fitting(state, p.id, ask)
    return (p, r.choice(fits), ask) if fits else None


def update_of(entity: str, record: Any, **fields: Any) -> dict[str, Any]:
    """An update obligation naming only the fields that really change: the canonical diff
    holds no entry for a field set to the value it had (a refund of 0 stays 0)."""
    return update(entity, record.id, **{k: v for k, v in fields.items() if getattr(record, k) != v})


def booking_ob(room: Room, ask: Ask, name: str, email: str, requests: str = "") -> dict[str, Any]:
    return create("bookings", property=room.property, room=room.id, check_in=ask.check_in, check_out=ask.check_out,
                  guests=ask.guests, rooms=ask.rooms, guest_name=name, guest_email=email, requests=requests,
                  total=room.price * ask.nights * ask.rooms, status="confirmed")  # fmt: skip


def lookalike(state: TravelState, r: random.Random, p: Property) -> dict[str, Any]:  # noqa: ARG001
    """The seed families' targets for a stay the task names by name and district: the record,
    and how a look-alike differs (the same name in another district of the city)."""
    from webfovea_breakingweb.apps.travel.content import CITIES

    other = r.choice([d for d in CITIES[p.city] if d != p.district])
    return {"decoy_of": p.id, "decoy": {"district": other, "x": min(94, p.x + 5)}}


def make(
    template: str, n: int, instruction: str, plan: list[Step], obligations: list[dict[str, Any]],
    targets: dict[str, Any],
) -> StatefulTask:  # fmt: skip
    """One instance `n` of `template` (id `travel-<template>-NN`): a state task ending in "done"."""
    classes = kit.input_classes(plan)
    if any(s["op"] == "fill" and "check" in s["target"]["selector"] for s in plan):
        classes.add("date_input")  # #checkin, #s-checkout, #m-checkin: the date pickers
    return kit.state_task(
        "travel",
        template,
        n,
        instruction + SIGN_IN,
        plan,
        obligations,
        targets,
        failure_classes=sorted(classes),
    )


def last_at(plan: list[Step], selector: str) -> int:
    """The index of the plan's last step on `selector`: where a change is redone from after a
    sign-in (the page re-renders, the draft is lost, the view stays where it was)."""
    return max(i for i, s in enumerate(plan) if s.get("target", {}).get("selector") == selector)
