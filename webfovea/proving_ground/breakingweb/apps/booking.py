"""Guided tours: reserve a tour on a date for a number of people; list and cancel reservations."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea.proving_ground.breakingweb.engine.spec import (
    AppState,
    FieldSpec,
    RowAction,
    SpaApp,
    add_earlier,
)

TOURS = (
    ("fjord", "Fjord cruise"),
    ("fjord-x", "Fjord cruise (express)"),
    ("glacier", "Glacier hike"),
    ("city", "City walk"),
    ("museum", "Museum pass"),
)


class Reservation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    tour: Literal["fjord", "fjord-x", "glacier", "city", "museum"]
    date: str = Field(pattern=r"^20\d\d-[01]\d-[0-3]\d$")
    quantity: int = Field(ge=1, le=12)
    contact: str = Field(min_length=1, max_length=80)
    status: Literal["confirmed", "cancelled"] = "confirmed"
    created: str
    updated: str


class BookingState(AppState):
    records: list[Reservation] = Field(default_factory=list)


def build(r: random.Random, seed: int) -> BookingState:
    state = BookingState()
    rows = [
        {
            "tour": tour,
            "date": f"2025-0{r.randint(5, 9)}-{r.randint(10, 28)}",
            "quantity": r.randint(1, 6),
            "contact": contact,
        }
        for tour, contact in [("city", "Ada Berg"), ("glacier", "Ola Nord"), ("museum", "Kari Vik")]
    ]
    add_earlier(state, Reservation, "B-", rows, lambda i: f"2024-12-1{i}T10:00:00Z")
    return state


APP = SpaApp(
    name="booking",
    title="Tour bookings",
    path="/app/booking",
    noun="reservation",
    id_prefix="B-",
    lead="Reserve guided tours for a date and a number of people. Your reservations are listed below the form.",
    state_model=BookingState,
    record_model=Reservation,
    build=build,
    fields=(
        FieldSpec("tour", "Tour", "select", TOURS),
        FieldSpec("date", "Date", "date"),
        FieldSpec("quantity", "People", "number"),
        FieldSpec("contact", "Contact name", "text"),
    ),
    columns=(
        ("id", "Reservation"),
        ("tour", "Tour"),
        ("date", "Date"),
        ("quantity", "People"),
        ("contact", "Contact"),
        ("status", "Status"),
    ),
    row_actions=(RowAction("cancel", "Cancel", {"status": "cancelled"}),),
    save_label="Reserve",
)
