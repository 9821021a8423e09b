"""The travel site's typed state (a Booking-like site for stays): properties in cities, their
room types with a nightly price and how many units exist, guest reviews, your bookings (upcoming,
past, cancelled), your saved stays (a wishlist flag on the property) and your messages with the
properties.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each booking,
message and review as an entity. A room's availability is not stored: it is its units less the
confirmed bookings that overlap the dates asked (routes.py), so a booking changes one record.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

Amenity = Literal["wifi", "parking", "pool", "breakfast", "gym", "pets", "air conditioning", "kitchen"]
AMENITIES: tuple[str, ...] = (
    "wifi",
    "parking",
    "pool",
    "breakfast",
    "gym",
    "pets",
    "air conditioning",
    "kitchen",
)
Kind = Literal["Hotel", "Apartment", "Guesthouse", "Hostel"]
Status = Literal["confirmed", "cancelled", "completed"]
CANCEL_REASONS = ("Change of plans", "Found a better price", "Travel dates changed", "Booked by mistake")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Property(_Strict):
    id: str  # H-0001
    name: str = Field(min_length=3, max_length=80)
    city: str
    district: str
    kind: Kind
    stars: int = Field(ge=0, le=5)
    rating: float = Field(ge=1, le=10)  # the guests' review score
    reviews: int = Field(ge=0)
    distance_km: float = Field(ge=0)  # from the city centre
    x: int = Field(ge=0, le=100)  # its pin on the city map, in percent of the map's box
    y: int = Field(ge=0, le=100)
    amenities: list[Amenity] = Field(default_factory=list)
    description: str = ""
    featured: bool = False  # shown on the home page's "Stays guests love"
    saved: bool = False  # on your wishlist


class Room(_Strict):
    id: str  # R-0001
    property: str
    name: str
    sleeps: int = Field(ge=1, le=8)
    beds: str
    price: int = Field(ge=1)  # euros per night
    refundable: bool  # free cancellation
    breakfast: bool = False
    units: int = Field(ge=1)


class Review(_Strict):
    id: str  # V-0001
    property: str
    author: str
    score: int = Field(ge=1, le=10)
    title: str = Field(min_length=1, max_length=120)
    text: str = Field(default="", max_length=2000)
    created: str
    booking: str | None = None  # yours: the stay it is about


class Booking(_Strict):
    id: str  # BK-0001 (the confirmation number)
    property: str
    room: str
    check_in: str  # YYYY-MM-DD
    check_out: str
    guests: int = Field(ge=1, le=16)
    rooms: int = Field(ge=1, le=4)
    guest_name: str = Field(min_length=2, max_length=80)
    guest_email: str = Field(min_length=3, max_length=120)
    requests: str = Field(default="", max_length=500)
    total: int = Field(ge=0)  # euros
    status: Status = "confirmed"
    cancel_reason: str = ""
    refund: int = Field(default=0, ge=0)
    created: str


class Message(_Strict):
    id: str  # M-0001
    folder: Literal["inbox", "sent"]
    property: str  # the property written to or from ("" for the site itself)
    sender: str
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)
    booking: str | None = None
    created: str
    read: bool = False


class Traveller(_Strict):
    name: str
    email: str


class TravelState(EnvState):
    today: str = "2025-01-06"  # the sites' "now" (engine/determinism.py EPOCH): trips split here
    me: Traveller = Traveller(name="Robin Vale", email="robin.vale@example.com")
    properties: list[Property] = Field(default_factory=list)
    rooms: list[Room] = Field(default_factory=list)
    reviews: list[Review] = Field(default_factory=list)
    bookings: list[Booking] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)
