"""A case mailbox: messages from citizens to mark resolved, star, move to a folder."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.cases import tasks as hand_written
from webfovea_breakingweb.engine.spec import (
    AppState,
    FieldSpec,
    RowAction,
    SpaApp,
    StatefulTask,
)

FOLDERS = (("inbox", "Inbox"), ("archive", "Archive"), ("billing", "Billing"), ("spam", "Spam"))
SENDERS = ("Ada Berg", "Ola Nord", "Kari Vik", "Per Lunde", "Siri Dahl", "Jon Moe", "Liv Aas", "Nils Ek")
SUBJECTS = (
    "Missing invoice",
    "Wrong address on file",
    "Request for data access",
    "Complaint about delay",
    "Question about fees",
    "Duplicate payment",
    "Change of contact",
    "Certificate not received",
)


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    sender: str
    subject: str
    status: Literal["open", "resolved"] = "open"
    folder: Literal["inbox", "archive", "billing", "spam"] = "inbox"
    starred: bool = False
    created: str
    updated: str


class CasesState(AppState):
    records: list[Case] = Field(default_factory=list)


def build(r: random.Random, seed: int) -> CasesState:
    state = CasesState()
    subjects = list(SUBJECTS)
    r.shuffle(subjects)
    for i, (sender, subject) in enumerate(zip(SENDERS, subjects, strict=True), 1):
        stamp = f"2024-12-{10 + i:02d}T{8 + r.randint(0, 9):02d}:00:00Z"
        state.records.append(
            Case(id=f"C-{i:04d}", sender=sender, subject=subject, created=stamp, updated=stamp)
        )
    state.counter = len(SENDERS)
    return state


def tasks(seed: int) -> list[StatefulTask]:
    return hand_written.tasks(APP, seed)


APP = SpaApp(
    name="cases",
    title="Case mailbox",
    path="/app/cases",
    noun="case",
    task_prefix="case",
    id_prefix="C-",
    lead="Messages from the public. Resolve a case when it is answered; move it to the right folder.",
    tasks=tasks,
    state_model=CasesState,
    record_model=Case,
    build=build,
    editable=False,
    creatable=False,
    fields=(FieldSpec("folder", "Folder", "select", FOLDERS),),
    columns=(
        ("id", "Case"),
        ("sender", "From"),
        ("subject", "Subject"),
        ("status", "Status"),
        ("folder", "Folder"),
        ("starred", "Starred"),
    ),
    row_actions=(
        RowAction("resolve", "Mark resolved", {"status": "resolved"}),
        RowAction("star", "Star", {"starred": True}),
        RowAction("move", "Move", choose="folder"),
    ),
)
