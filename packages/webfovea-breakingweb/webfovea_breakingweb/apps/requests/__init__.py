"""Data requests on the portal: create, edit and list your extract requests, and a data
catalogue (latest values per dataset, filtered by topic) for retrieval tasks."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.requests import tasks as hand_written
from webfovea_breakingweb.engine.spec import (
    AppState,
    CatalogueSpec,
    FieldSpec,
    RowAction,
    SpaApp,
    StatefulTask,
    add_earlier,
)

DATASETS = (
    ("cpi-m", "Consumer prices, monthly"),
    ("trade-q", "Merchandise trade, quarterly"),
    ("lfs-a", "Labour force survey, annual"),
    ("gdp-q", "National accounts, quarterly"),
    ("hpi-q", "House price index, quarterly"),
)
FORMATS = (("CSV", "CSV"), ("XLSX", "Excel (XLSX)"), ("JSON", "JSON"))
TOPICS = ("Prices", "Trade", "Labour", "Economy")
UNITS = (("U1", "Index (2015=100)"), ("U2", "Million EUR"), ("U3", "Thousand persons"), ("U4", "Percent"))
# The catalogue: (id, name, topic, unit); values and release dates come from the seed.
SERIES = (
    ("S01", "Consumer prices, all items", "Prices", "U1"),
    ("S02", "Consumer prices, energy", "Prices", "U1"),
    ("S03", "House prices, existing dwellings", "Prices", "U1"),
    ("S04", "Exports of goods", "Trade", "U2"),
    ("S05", "Imports of goods", "Trade", "U2"),
    ("S06", "Employed persons", "Labour", "U3"),
    ("S07", "Unemployment rate", "Labour", "U4"),
    ("S08", "Gross domestic product", "Economy", "U2"),
    ("S09", "Household consumption", "Economy", "U2"),
    ("S10", "Labour force", "Labour", "U3"),
)


class DataRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    dataset: Literal["cpi-m", "trade-q", "lfs-a", "gdp-q", "hpi-q"]
    delivery: str = Field(pattern=r"^20\d\d-[01]\d-[0-3]\d$")
    format: Literal["CSV", "XLSX", "JSON"]
    rows: int = Field(ge=1, le=100000)
    notes: str = Field(min_length=1, max_length=400)
    status: Literal["submitted", "withdrawn"] = "submitted"
    created: str
    updated: str


class RequestsState(AppState):
    records: list[DataRequest] = Field(default_factory=list)


def build(r: random.Random, seed: int) -> RequestsState:
    state = RequestsState()
    # Three earlier requests, so edits and invariants have neighbours to leave alone.
    rows = [
        {
            "dataset": ds,
            "delivery": f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
            "format": fmt,
            "rows": r.randint(1, 40) * 100,
            "notes": note,
        }
        for ds, fmt, note in [
            ("cpi-m", "CSV", "Regional breakdown"),
            ("lfs-a", "XLSX", "Youth only"),
            ("gdp-q", "CSV", "Seasonally adjusted"),
        ]
    ]
    add_earlier(state, DataRequest, "R-", rows, lambda i: f"2024-12-0{i}T10:00:00Z")
    days = r.sample(range(2, 28), len(SERIES))  # distinct release days: "the latest" is one series
    for (sid, name, topic, unit), day in zip(SERIES, days, strict=True):
        value = f"{r.uniform(80, 140):.1f}" if unit in ("U1", "U4") else f"{r.randint(1200, 98000):,}"
        if unit == "U4":
            value = f"{r.uniform(2, 11):.1f}"
        state.catalogue.append(
            {
                "id": sid,
                "name": name,
                "topic": topic,
                "unit": unit,
                "value": value,
                "period": f"2024-{r.randint(7, 12):02d}",
                "released": f"2025-01-{day:02d}",
            }
        )
    state.catalogue.sort(key=lambda row: row["released"], reverse=True)  # newest release first
    state.units = [{"id": u, "name": n} for u, n in UNITS]
    return state


def tasks(seed: int) -> list[StatefulTask]:
    return hand_written.tasks(APP, seed)


APP = SpaApp(
    name="requests",
    title="Data requests",
    path="/app/requests",
    noun="request",
    task_prefix="req",
    id_prefix="R-",
    lead="Order custom data extracts and follow your requests. The catalogue lists the latest published values.",
    tasks=tasks,
    state_model=RequestsState,
    record_model=DataRequest,
    build=build,
    fields=(
        FieldSpec("dataset", "Dataset", "select", DATASETS),
        FieldSpec("delivery", "Delivery date", "date"),
        FieldSpec("format", "File format", "select", FORMATS),
        FieldSpec("rows", "Maximum rows", "number"),
        FieldSpec("notes", "Notes", "textarea"),
    ),
    columns=(
        ("id", "Reference"),
        ("dataset", "Dataset"),
        ("delivery", "Delivery"),
        ("format", "Format"),
        ("rows", "Rows"),
        ("notes", "Notes"),
        ("status", "Status"),
    ),
    row_actions=(RowAction("withdraw", "Withdraw", {"status": "withdrawn"}),),
    catalogue=CatalogueSpec(
        "Data catalogue",
        "Topic",
        TOPICS,
        (
            ("id", "Series"),
            ("name", "Name"),
            ("value", "Latest value"),
            ("unit", "Unit"),
            ("period", "Period"),
            ("released", "Released"),
        ),
    ),
    save_label="Submit request",
)
