"""The tour booking's typed state: tours, their departures (a date and time with seats), and
your reservations. Money is in cents; a departure's `booked` counts the seats taken."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from webfovea_breakingweb.engine.spec import BaseState


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Tour(_Rec):
    id: str
    name: str
    price: int = Field(ge=1)  # cents per person
    minutes: int


class Departure(_Rec):
    id: str
    tour: str
    date: str = Field(pattern=r"^20\d\d-[01]\d-[0-3]\d$")
    time: str = Field(pattern=r"^\d\d:\d\d$")
    capacity: int = Field(ge=1)
    booked: int = Field(ge=0)

    @model_validator(mode="after")
    def _fits(self) -> Departure:
        if self.booked > self.capacity:
            raise ValueError(f"departure {self.id}: more seats booked than it has")
        return self


class Reservation(_Rec):
    id: str
    departure: str
    tour: str
    date: str
    time: str
    people: int = Field(ge=1, le=12)
    contact: str = Field(min_length=2, max_length=80)
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    total: int
    status: Literal["confirmed", "cancelled"] = "confirmed"


class BookingState(BaseState):
    tours: list[Tour] = Field(default_factory=list)
    departures: list[Departure] = Field(default_factory=list)
    reservations: list[Reservation] = Field(default_factory=list)
