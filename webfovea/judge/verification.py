"""Protocol III's verification queue (seed 004: end-to-end retrieval is verified by people).

`bench --protocol III` (app/protocols.py) writes RUN/verification.jsonl, one object per task:
`task_id`, `task`, `answer`, `expected`, `status`, `scored_correct` (the suite's scoring) and
`folder`. A person verifies a queued task by labelling it in `webfovea view` (RUN/labels.jsonl,
judge/labels.py): `success` means the delivered answer is right. A task is *to verify* while
it has no label, *verified* once it has one. The viewer reads the queue leniently: a line that
is not an object with a `task_id` is skipped and counted, never a reason to hide the rest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

QUEUE_FILE = "verification.jsonl"


@dataclass
class Queue:
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)  # task id -> its line
    skipped: int = 0  # lines that were not queue entries


def parse_queue(text: str) -> Queue:
    queue = Queue()
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            queue.skipped += 1
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("task_id"), str):
            queue.skipped += 1
            continue
        queue.entries[entry["task_id"]] = entry
    return queue


def read_queue(path: Path) -> Queue:
    """The queue at `path` (an empty queue when there is none)."""
    try:
        return parse_queue(Path(path).read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return Queue()


__all__ = ["QUEUE_FILE", "Queue", "parse_queue", "read_queue"]
