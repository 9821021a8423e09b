"""The calendar's typed state: events (one-off or recurring, each scheduled in a time zone),
the invitations you received, the rooms legend, your profile (your time zone), the calendars
and your contacts. Times are stored in UTC (`2025-03-12T09:00Z`); the page shows them in your
zone. Every list holds records with an `id` (entities of the canonical diff); lists inside a
record (`attendees`, `skipped`) are kept sorted by the server, so equal changes give equal diffs."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import AppState

Repeat = Literal["none", "daily", "weekly", "monthly"]
Answer = Literal["pending", "accepted", "declined"]
ME = "Me"
CALENDARS: tuple[tuple[str, str, str], ...] = (
    ("work", "Work", "#2f6fb0"),
    ("team", "Team", "#2e8b57"),
    ("personal", "Personal", "#a0449b"),
)
REPEATS: tuple[tuple[str, str], ...] = (
    ("none", "Does not repeat"),
    ("daily", "Every day"),
    ("weekly", "Every week"),
    ("monthly", "Every month"),
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Event(_Strict):
    id: str  # E-0001
    title: str = Field(min_length=3, max_length=120)
    calendar: Literal["work", "team", "personal"] = "work"
    start: str = Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\dZ$")  # the first occurrence, UTC
    minutes: int = Field(default=60, ge=15, le=600)
    zone: str  # the IANA zone it was scheduled in: its occurrences keep that wall time
    location: str = Field(default="", max_length=120)
    room: str = ""  # a room code (the Rooms legend names it)
    organizer: str = ME  # a contact's name for an invitation, ME for your own events
    attendees: list[str] = Field(default_factory=list)  # contact ids
    repeat: Repeat = "none"
    count: int = Field(default=1, ge=1, le=52)  # occurrences of the series
    skipped: list[str] = Field(default_factory=list)  # occurrence keys (local dates) removed
    description: str = Field(default="", max_length=2000)
    created: str
    updated: str


class Invitation(_Strict):
    id: str  # I-0001
    event: str
    sender: str  # the organiser's name
    status: Answer = "pending"
    received: str  # when it arrived (UTC); the invitations list shows them as stored
    created: str
    updated: str


class Profile(_Strict):
    id: str  # "me"
    name: str
    zone: str


class Contact(_Strict):
    id: str
    name: str
    email: str


class Calendar(_Strict):
    id: str
    name: str
    color: str


class CalendarState(AppState):
    events: list[Event] = Field(default_factory=list)
    invitations: list[Invitation] = Field(default_factory=list)
    profile: list[Profile] = Field(default_factory=list)
    contacts: list[Contact] = Field(default_factory=list)
    calendars: list[Calendar] = Field(default_factory=list)
