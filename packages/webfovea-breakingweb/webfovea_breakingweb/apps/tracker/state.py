"""The issue tracker's typed state: tickets in board columns, their comments, the team and
the labels. Every list holds records with an `id` (entities of the canonical diff); a
ticket's `labels` are kept sorted by the server, so equal changes give equal diffs."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import AppState

Status = Literal["backlog", "todo", "in_progress", "review", "done"]
Priority = Literal["low", "medium", "high", "urgent"]
COLUMNS: tuple[tuple[str, str], ...] = (
    ("backlog", "Backlog"),
    ("todo", "To do"),
    ("in_progress", "In progress"),
    ("review", "In review"),
    ("done", "Done"),
)
PRIORITIES: tuple[tuple[str, str], ...] = (
    ("low", "Low"),
    ("medium", "Medium"),
    ("high", "High"),
    ("urgent", "Urgent"),
)
ME = "u-me"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ticket(_Strict):
    id: str  # T-0001
    title: str = Field(min_length=3, max_length=120)
    description: str = Field(default="", max_length=4000)
    status: Status = "backlog"
    priority: Priority = "medium"
    assignee: str | None = None  # a user id
    reporter: str
    labels: list[str] = Field(default_factory=list)
    estimate: int = Field(default=1, ge=0, le=40)  # story points
    created: str
    updated: str


class Comment(_Strict):
    id: str  # C-0001
    ticket: str
    author: str  # a user id
    body: str = Field(min_length=1, max_length=2000)
    created: str
    updated: str


class User(_Strict):
    id: str
    name: str


class Label(_Strict):
    id: str
    name: str
    color: str


class TrackerState(AppState):
    tickets: list[Ticket] = Field(default_factory=list)
    comments: list[Comment] = Field(default_factory=list)
    users: list[User] = Field(default_factory=list)
    labels: list[Label] = Field(default_factory=list)
