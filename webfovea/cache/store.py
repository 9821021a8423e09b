"""The workflow cache on disk: one JSON file per task, named by the hash of what the task is.

A task is its instruction (with its answer schema, when it has one) and its start URL; the
key is their SHA-256, so the same task on the same site finds its entry and any other task
does not. An entry holds the executed actions of the last run that finished, in order, each
with the page's URL and what identified its target (`targets.py`). An entry that cannot be
read is treated as absent: the run asks the model and writes a good one — so is an entry of an
older version (version 1 identified a target inside an iframe by the iframe alone, and an
answer by the page's text: evidence too weak to replay).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from webfovea.record.atomic import now_iso, write_json_atomic
from webfovea.task import Task

VERSION = 2  # 2: frame targets identified inside the frame, answers by their elements


def task_key(task: Task) -> str:
    """The SHA-256 of the instruction the model is given and the start URL."""
    payload = json.dumps({"task": task.instruction(), "website": task.website}, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass
class CachedStep:
    """One executed action. `args` keeps every argument as written except targets: a point is
    `{"point": [x, y] (CSS px), "target": identity or null}` (over an iframe the identity's `frame`
    holds the element's inside it), a region `{"box": [x1, y1, x2, y2]}`
    (CSS px), several points `{"points": [...]}` (never replayed), a ref `{"ref_path": [...]}`."""

    action: str
    args: dict[str, Any]
    url: str  # the page it was taken on
    answer: str | None = None  # the answer it gave (an action that ends the task)
    executed_point: list[float] | None = None  # where it landed (CSS px), for the reader
    # Where the answer was read: per value of it (a JSON answer's every string and number), the
    # elements whose visible text held it as a whole token, [{tag, path, html_id}] (targets.py).
    answer_at: list[list[dict[str, Any]]] | None = None


@dataclass
class Entry:
    key: str
    task: str
    website: str
    observation: str  # the observation mode it was recorded in (a ref means nothing in vision)
    steps: list[CachedStep] = field(default_factory=list)
    written_at: str = ""
    version: int = VERSION

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def entry_path(folder: Path, key: str) -> Path:
    return Path(folder).expanduser() / f"{key}.json"


def load(folder: Path, key: str) -> Entry | None:
    """The entry for the key; None when there is none, or it cannot be read as one."""
    path = entry_path(folder, key)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION or data.get("key") != key:
            return None
        steps = [CachedStep(**s) for s in data["steps"]]
        return Entry(
            key=key,
            task=str(data["task"]),
            website=str(data["website"]),
            observation=str(data["observation"]),
            steps=steps,
            written_at=str(data.get("written_at") or ""),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def save(folder: Path, entry: Entry) -> Path:
    """Write the entry atomically (a reader never sees half a file), replacing the old one,
    through the records' scrubbing writer: string by string, so a secret value that reads like
    a number or JSON syntax cannot break the file (it did, scrubbed as text)."""
    entry.written_at = now_iso()
    Path(folder).expanduser().mkdir(parents=True, exist_ok=True)
    return write_json_atomic(entry_path(folder, entry.key), entry.to_json())
