"""docs/records.md describes every field of every record schema, every status and component,
and links nowhere outside the repository."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from webfovea.config import Component, HarnessConfig
from webfovea.record import (
    CaptureFile,
    GroupStats,
    RunInfo,
    StepRecord,
    Summary,
    SummaryMeta,
    TaskResult,
    TaskRow,
    UsageTotals,
)
from webfovea.record.schema import Status
from webfovea.task import Task

DOC = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
SCHEMAS: list[type[BaseModel]] = [
    TaskResult,
    UsageTotals,
    StepRecord,
    CaptureFile,
    RunInfo,
    Summary,
    SummaryMeta,
    TaskRow,
    GroupStats,
    HarnessConfig,
    Task,
]


@pytest.mark.parametrize("model", SCHEMAS, ids=lambda m: m.__name__)
def test_every_field_is_documented(model):
    missing = [name for name in model.model_fields if f"`{name}`" not in DOC]
    assert missing == []


def test_every_status_and_component_is_documented():
    names = [*typing.get_args(Status), *(c.value for c in Component)]
    assert [n for n in names if f"`{n}`" not in DOC] == []


def test_no_links_outside_the_repository():
    targets = re.findall(r"\]\(([^)]+)\)", DOC)
    assert targets and all(t.startswith("#") for t in targets)
