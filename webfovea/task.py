"""A task: what users give us (the WebRetriever fields), shared by every part of webfovea.

Fields this model does not know are kept as they are (`model_extra`): a task file's own
extra fields survive a run, and an environment can carry its own data on a task — the
proving ground's oracle plan and quirks travel this way (`webfovea_proving_ground.plan.PlannedTask`).

Also the one rule for task ids: an id names the task's folder in a run, so it must be a safe
folder name. The task-file loader and the runner's queue both check it here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Starts with a letter or digit, so "." / ".." / hidden names and path separators are impossible.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-]{0,199}")
TASK_ID_RULE = "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 200 characters"
# Names the run itself writes into its output folder (runner/api.py, record/, eval/): a task
# folder of the same name would overwrite them or be overwritten. Compared case-insensitively
# (a case-insensitive filesystem would make `Summary.json` the same file).
RESERVED_IDS = frozenset(
    {
        "queue.sqlite",
        "queue.sqlite-wal",
        "queue.sqlite-shm",
        "queue.sqlite-journal",
        "tasks.json",
        "run.json",
        "summary.json",
        "summary.partial.json",
        "report.html",
        "runner.log.jsonl",
        "hostile.json",
        "ab.json",
        "agreement.json",
        "result.json",
        "capture.json",
        "trajectory.jsonl",
    }
)


class TaskIdError(ValueError):
    """A task id that cannot be used; str(e) is one line for the user."""


def check_task_id(task_id: str) -> None:
    """Raise TaskIdError unless `task_id` can be used as a folder name inside a run folder."""
    # fullmatch, not match: `$` would let a trailing newline through.
    if not isinstance(task_id, str) or not _SAFE_ID.fullmatch(task_id):
        raise TaskIdError(f"task_id {task_id!r} cannot be a folder name ({TASK_ID_RULE})")
    if task_id.lower() in RESERVED_IDS:
        raise TaskIdError(
            f"task_id {task_id!r} is the name of a file the run writes into its folder; rename the task"
        )


def check_task_ids(task_ids: Iterable[str]) -> None:
    """Every id valid (check_task_id) and none used twice: two tasks must not share a folder."""
    seen: set[str] = set()
    for tid in task_ids:
        check_task_id(tid)
        if tid in seen:
            raise TaskIdError(f"task_id {tid!r} appears more than once in the task list")
        seen.add(tid)


class SessionSpec(BaseModel):
    """Bind the browser to a fresh server-side session before the first navigation.

    An environment that keeps state or logs per browser (the proving ground's sites) declares
    where its control plane creates sessions; the agent asks it for one (with the secret from
    WEBFOVEA_CONTROL_SECRET, never from the task), sets the returned cookie on the start
    page's origin and records the session id in result.json. The model sees none of it.
    """

    model_config = ConfigDict(extra="forbid")

    control_url: str  # POST here creates a session: {task_id, seed, variant} -> {session_id, cookie}
    seed: int = 0
    variant: str | None = None  # an environment's named variant (e.g. an intervention plan)


class EnvironmentSpec(BaseModel):
    """The environment that sets a task up and scores it (`driving/environment.py`): its kind
    (`browsergym`), the task it names there (`miniwob.click-test`), the seed, its options."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    name: str
    seed: int = 0
    options: dict[str, Any] = Field(default_factory=dict)


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
    session: SessionSpec | None = None  # a server-side session to bind the browser to (environments)
    allow_origins: list[str] = Field(default_factory=list)  # more origins of the task's site (loopback hosts)
    # A task that changes state on the site (saves, submits, books): with the `verify` switch on,
    # its first finished is held until the model has looked at the real state again.
    state_changing: bool = False
    verify_url: str | None = None  # the page showing the real state (a list of saved items); None: reload
    # An environment that sets the task up on the page and scores it (BrowserGym): None for a
    # task that starts at `website` and is scored by its answer or the site's state.
    environment: EnvironmentSpec | None = None
    # The JSON Schema the answer must meet (from Python: `answer_schema_of(MyModel)`): the model is
    # told it, `finished` must carry a JSON value that validates, and result.json keeps the value
    # (`answer_value`); the expected `answer` is then compared field by field. None: a text answer.
    answer_schema: dict[str, Any] | None = None

    def instruction(self) -> str:
        """What the model is told the task is: the instruction, and the answer's schema if any."""
        if self.answer_schema is None:
            return self.task
        import json

        schema = json.dumps(self.answer_schema, ensure_ascii=False, separators=(",", ":"))
        return (
            f"{self.task}\n\nAnswer with finished(content=...) holding one JSON value that meets this "
            f"JSON Schema (no other text): {schema}"
        )


def answer_schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The answer schema of a Pydantic type, for `Task(answer_schema=...)`."""
    return model.model_json_schema()
