"""One person's attempt at one task, as `human_attempts.json` in the task folder holds it: both
attempts (cold, then warm after the backend reset), each with how it ended, its backend verdict,
its wall time and its raw browser events. result.json holds the cold attempt, so a people's run
reads like any run; the report over runs reads this file for the warm rows, Table 5 and Figure 6.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

ATTEMPTS_FILE = "human_attempts.json"
ATTEMPTS = ("cold", "warm")
Ending = Literal["done", "infeasible", "timeout", "closed"]


class RawEvents(BaseModel):
    """Raw browser events on the task's page (seed 003 Table 5's `Events`): pointer clicks, key
    presses and main-frame navigations (a document load or a same-document route change of the
    app's history) after the task's page loaded; the task window's own are not counted."""

    clicks: int = 0
    keys: int = 0
    navigations: int = 0

    @property
    def total(self) -> int:
        return self.clicks + self.keys + self.navigations


class Attempt(BaseModel):
    attempt: Literal["cold", "warm"]
    ending: Ending
    status: str  # result.json's status: finished (done or infeasible), timeout, error
    answer: str | None = None
    passed: bool = False
    score: float = 0.0  # the evaluator's credit (summary.json's per-task score)
    state_score: float | None = None  # the share of obligations met
    seconds: float = 0.0  # wall time from the page shown to the person's ending
    events: RawEvents = Field(default_factory=RawEvents)
    session_id: str | None = None


class TaskAttempts(BaseModel):
    task_id: str
    family: str | None = None  # the intervention family; None: the clean condition
    attempts: list[Attempt]

    def get(self, which: str) -> Attempt | None:
        return next((a for a in self.attempts if a.attempt == which), None)


def write_attempts(task_dir: Path, record: TaskAttempts) -> Path:
    path = Path(task_dir) / ATTEMPTS_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(record.model_dump_json(indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def read_attempts(task_dir: Path) -> TaskAttempts | None:
    path = Path(task_dir) / ATTEMPTS_FILE
    if not path.is_file() or path.is_symlink():
        return None
    try:
        return TaskAttempts.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None
