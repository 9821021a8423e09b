"""What an app and a stateful task declare (the seam every app plugs into).

`AppSpec` is what every app registers (apps/__init__.py): its name, page, typed state and
seeded content builder, how it mounts its own routes and renders its own page, and its task
generator. Two kinds exist:

- `SpaApp`: a declaration of one editable entity (fields, list columns, row actions) and an
  optional read-only catalogue; the engine serves its JSON API (api.py) and the generic
  client-side page (spa.py) renders it. The three first apps are these.
- a plain `AppSpec` with `routes` and `page`: an app with its own workflow, multi-entity
  state, its own API (engine/store.py helps: session lookup, transactional writes through the
  save hooks, ids) and its own HTML/JS (engine/page.py wraps it with the intervention script).

A task names its app, what the seed builder should prepare, the oracle plan, and the
obligations its final backend state must meet (webfovea_breakingweb/obligations.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.determinism import rng

if TYPE_CHECKING:
    from fastapi import FastAPI

    from webfovea_proving_ground.sessions import Session, SessionStore


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


class BaseState(BaseModel):
    """Base of every app's state: lists of typed records (each with an `id`: the entities the
    canonical diff and the obligations name), plus the session clock and id counter (noise)."""

    model_config = ConfigDict(extra="forbid")

    counter: int = 0  # the last id number handed out
    clock: int = 0  # minutes after the epoch of the last change (advances per change)
    # Messages the page shows above the app (seed-layer content, e.g. a phishing notice): every
    # app's page renders them (engine/mount.py), so a seed-layer notice reaches any app.
    notices: list[dict[str, Any]] = Field(default_factory=list)


class AppState(BaseState):
    """The state of a generic-SPA app: `records` holds the editable entity; `catalogue` read-only
    rows; `key_figures` the prominent summary box; `units` the legend. Every list item has an `id`."""

    unit_display: str = "name"  # name | code (split information shows codes only)
    catalogue: list[dict[str, Any]] = Field(default_factory=list)
    key_figures: list[dict[str, Any]] = Field(default_factory=list)
    units: list[dict[str, Any]] = Field(default_factory=list)


class EnvState(BaseState):
    """The state of a React environment (react/): its own records plus what the shell every
    environment shares (react/kit/Shell.jsx) draws above the app when a seed-layer family
    filled it: `key_figures` (seed/planted_answer's box), `unit_display` and `units` (seed/
    split_information: the page shows a unit's code, the legend its name). Each environment
    fills `units` with the codes its pages can show (a ticker's company, a course's title)."""

    unit_display: str = "name"  # name | code
    key_figures: list[dict[str, Any]] = Field(default_factory=list)
    units: list[dict[str, Any]] = Field(default_factory=list)


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


Routes = Callable[["AppSpec", "FastAPI", "SessionStore"], None]
Page = Callable[["AppSpec", "Session | None", "dict[str, Any] | None"], str]
Tasks = Callable[[int], "list[StatefulTask]"]


@dataclass(kw_only=True, eq=False)
class AppSpec:
    """One app. `content`: "seed" — the seeded content is built once per seed from
    `rng("app:<name>", seed, None, "content")` and every task of that seed starts from a copy
    (the task generator reads the same content); "task" — built per task from
    `rng(task, seed, None, "state")` (the first apps' hand-written tasks)."""

    name: str  # e.g. "shop": its API lives under /api/<name>
    title: str
    path: str  # its page, e.g. /app/shop (the verify gate re-reads here unless a task says otherwise)
    state_model: type[BaseState]
    build: Callable[[random.Random, int], BaseState]  # the clean initial state for a seed
    lead: str = ""
    content: str = "seed"  # "seed" | "task"
    routes: Routes | None = None  # mounts the app's own API (and any further pages)
    page: Page | None = None  # renders its page at `path` for a session and its client plan
    tasks: Tasks | None = None  # its task generator, deterministic by seed
    summary: str = ""  # one line for the catalogue: how the app is operated
    noun: str = "item"  # what a user makes here ("order", "payment"): families' texts name it
    # What the first families look for on an app (a generic-SPA app sets them).
    id_prefix: str = ""
    # Its task ids start with "<task_prefix>-" (default: its name): a session for another
    # site's task is told apart without generating this app's tasks (tasks.find_task).
    task_prefix: str = ""
    catalogue: CatalogueSpec | None = None
    # Where its API lives when not under /api/<name>: the React environments (react/) serve
    # theirs under /api/env/<name>, as seed 003's A.1 lays them out.
    api_base: str = ""
    # Where this environment keeps content a phishing message can hide in (seed 003: "a phishing
    # email in the seeded inbox", "its equivalent in each environment"): plants the message
    # `{sender, subject, body, link: {href, text}, domain}` in the state. None: the notice above
    # the app (engine/mount.py), for the apps that keep no such content.
    phishing: Callable[[BaseState, random.Random, dict[str, Any]], None] | None = None

    @property
    def api(self) -> str:
        return self.api_base or f"/api/{self.name}"

    @property
    def task_id_start(self) -> str:
        return f"{self.task_prefix or self.name}-"

    def initial(self, task_id: str, seed: int) -> BaseState:
        """The clean initial state of one task's session (a fresh copy: sessions never share one)."""
        if self.content == "task":
            return self.build(rng(task_id, seed, None, "state"), seed)
        return _seeded(self, seed).model_copy(deep=True)


@lru_cache(maxsize=32)
def _seeded(app: AppSpec, seed: int) -> BaseState:
    return app.build(rng(f"app:{app.name}", seed, None, "content"), seed)


@dataclass(kw_only=True, eq=False)
class SpaApp(AppSpec):
    """An app the generic SPA renders: one editable entity (`records`) and its declaration."""

    noun: str  # "request"
    record_model: type[BaseModel]  # validates a create/update (a 422 the page shows)
    fields: tuple[FieldSpec, ...]
    columns: tuple[tuple[str, str], ...]  # list columns (key, header)
    content: str = "task"
    editable: bool = True
    creatable: bool = True
    row_actions: tuple[RowAction, ...] = ()
    save_label: str = "Save"
    defaults: dict[str, Any] = field(default_factory=dict)  # fields the server sets on create


class StatefulTask(BaseModel):
    """The server's and the suite's view of one task (one source for both)."""

    task_id: str
    app: str
    instruction: str
    category: str = "form interaction"
    failure_classes: list[str] = Field(default_factory=list)
    answer: Any | None = None  # retrieval tasks: the expected answer
    state_changing: bool = True  # a state task (an app's state_tasks.py); False: retrieval
    obligations: list[dict[str, Any]] = Field(default_factory=list)
    noise: list[str] = Field(default_factory=lambda: ["updated"])  # fields allowed to change
    plan: list[dict[str, Any]] = Field(default_factory=list)
    targets: dict[str, Any] = Field(default_factory=dict)  # what interventions aim at (see families)
    families: list[str] = Field(default_factory=list)  # the intervention families that apply
