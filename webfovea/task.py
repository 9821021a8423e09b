"""A task: what users give us (WebRetriever fields) plus, for the proving ground, what we know."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Task(BaseModel):
    task_id: str
    task: str  # the instruction
    website: str  # the start URL
    task_index: int | None = None
    answer: Any | None = None  # expected answer, when known
    category: str | None = None  # Protocol III category
    failure_classes: list[str] = Field(default_factory=list)
    plan: list[dict[str, Any]] = Field(default_factory=list)  # oracle plan (proving ground only)
    site: str | None = None  # proving-ground site name
    quirks: dict[str, Any] = Field(default_factory=dict)  # oracle quirk overrides for this task
