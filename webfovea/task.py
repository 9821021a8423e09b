"""A task: what users give us (the WebRetriever fields), shared by every part of webfovea.

Fields this model does not know are kept as they are (`model_extra`): a task file's own
extra fields survive a run, and an environment can carry its own data on a task — the
proving ground's oracle plan and quirks travel this way (`envs.plan.PlannedTask`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Task(BaseModel):
    model_config = ConfigDict(extra="allow")

    task_id: str
    task: str  # the instruction
    website: str  # the start URL
    task_index: int | None = None
    answer: Any | None = None  # expected answer, when known
    category: str | None = None  # Protocol III category
    failure_classes: list[str] = Field(default_factory=list)  # failure classes the task exercises (reports)
    site: str | None = None  # proving-ground site name
    allow_origins: list[str] = Field(default_factory=list)  # more origins of the task's site (loopback hosts)
