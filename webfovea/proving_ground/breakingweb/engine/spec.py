"""What a stateful app and a stateful task declare.

An app is a typed state (Pydantic) plus a declaration of its one editable entity (fields,
list columns, row actions) and optionally a read-only catalogue; the engine (engine.py)
serves its JSON API and the client-side page (spa.py) renders it. A task names its app,
what the seed builder should prepare, the oracle plan, and the obligations its final
backend state must meet (proving_ground/breakingweb/obligations.py scores them).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class FieldSpec:
    name: str
    label: str
    kind: str  # select | date | number | text | textarea
    options: tuple[tuple[str, str], ...] = ()  # (value, label) for selects


@dataclass(frozen=True)
class RowAction:
    name: str  # URL segment: POST {api}/records/{id}/{name}
    label: str  # the button's text
    sets: dict[str, Any] = field(default_factory=dict)  # fields it sets
    choose: str | None = None  # a field chosen in a select next to the button (e.g. folder)


@dataclass(frozen=True)
class CatalogueSpec:
    """A read-only table the retrieval tasks read (filtered by one select + Apply)."""

    title: str
    filter_label: str
    filter_options: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]  # (key, header)


class AppState(BaseModel):
    """Base of every app's state: typed records, counters and the settings seed hooks change.

    `records` holds the editable entity; `catalogue` read-only rows; `key_figures` the
    prominent summary box; `units` the legend; `notices` messages the page shell shows above
    the app (seed-layer content: a phishing notice; spa.py renders them for every app). Every
    list item has an `id`.
    """

    model_config = ConfigDict(extra="forbid")

    counter: int = 0  # the last id number handed out
    clock: int = 0  # minutes after the epoch of the last change (advances per change)
    unit_display: str = "name"  # name | code (split information shows codes only)
    catalogue: list[dict[str, Any]] = Field(default_factory=list)
    key_figures: list[dict[str, Any]] = Field(default_factory=list)
    units: list[dict[str, Any]] = Field(default_factory=list)
    notices: list[dict[str, Any]] = Field(default_factory=list)


def add_earlier(
    state: AppState,
    model: type[BaseModel],
    prefix: str,
    rows: list[dict[str, Any]],
    stamp: Callable[[int], str],
) -> None:
    """The records a seeded state starts with (ids `prefix0001`…, created = updated =
    `stamp(i)`), so edits and invariants have neighbours to leave alone; the id counter follows."""
    for i, fields in enumerate(rows, start=1):
        when = stamp(i)
        state.records.append(model(id=f"{prefix}{i:04d}", created=when, updated=when, **fields))  # type: ignore[attr-defined]
    state.counter = len(state.records)


@dataclass
class AppSpec:
    name: str  # e.g. "requests"
    title: str
    path: str  # the page, e.g. /app/requests
    lead: str
    noun: str  # "request"
    id_prefix: str  # "R-"
    state_model: type[AppState]
    record_model: type[BaseModel]  # validates a create/update (a 422 the page shows)
    fields: tuple[FieldSpec, ...]
    columns: tuple[tuple[str, str], ...]  # list columns (key, header)
    build: Callable[[random.Random, int], AppState]  # the clean initial state for a seed
    editable: bool = True
    creatable: bool = True
    row_actions: tuple[RowAction, ...] = ()
    catalogue: CatalogueSpec | None = None
    save_label: str = "Save"
    defaults: dict[str, Any] = field(default_factory=dict)  # fields the server sets on create

    @property
    def api(self) -> str:
        return f"/api/{self.name}"


class StatefulTask(BaseModel):
    """The server's and the suite's view of one task (one source for both)."""

    task_id: str
    app: str
    instruction: str
    category: str = "form interaction"
    failure_classes: list[str] = Field(default_factory=list)
    answer: Any | None = None  # retrieval tasks: the expected answer
    state_changing: bool = True
    obligations: list[dict[str, Any]] = Field(default_factory=list)
    noise: list[str] = Field(default_factory=lambda: ["updated"])  # fields allowed to change
    plan: list[dict[str, Any]] = Field(default_factory=list)
    targets: dict[str, Any] = Field(default_factory=dict)  # what interventions aim at (see families)
    families: list[str] = Field(default_factory=list)  # the intervention families that apply
