"""The one source of randomness, ids and time for stateful apps and interventions.

Same (task, seed, variant) must give byte-identical state, audit log and diff, in any process:
so randomness is `sha256(task|seed|variant|purpose)` (never `hash()`, salted per process),
ids come from counters and timestamps from a fixed epoch plus seeded or ordinal offsets.
An AST test (tests/breakingweb/test_determinism.py) forbids every other source here.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel

EPOCH = datetime(2025, 1, 6, 9, 0, 0, tzinfo=UTC)  # the sites' "now" before any request


def rng(task_id: str, seed: int, variant: str | None, purpose: str) -> random.Random:
    """A generator for one purpose of one session; the only way code here draws randomness."""
    digest = hashlib.sha256(f"{task_id}|{seed}|{variant}|{purpose}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def stamp(minutes: int) -> str:
    """A timestamp `minutes` after the epoch (ISO, UTC, second precision)."""
    return (EPOCH + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def canonical(value: BaseModel | dict[str, Any] | list[Any]) -> str:
    """The canonical JSON of a state, a diff or an audit log: sorted keys, no spaces, UTF-8."""
    data = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_of(value: BaseModel | dict[str, Any] | list[Any]) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()
