"""The calls' cache: a second identical call on the same page state asks no model.

Like the workflow cache (webfovea/cache/), an entry is keyed by a SHA-256 of what was asked
and where: the call's kind, its instruction (and schema), the page's URL, the observation mode,
the coordinate space, the image size, and the digest of the capture the model would be shown
— byte-identical pixels, so the model's reply (its points in that image's space) still means
the same. `act` keeps the replies it executed, `extract` the validated value, `observe` the
reply it read candidates from. Entries live in memory, and in `folder` (one JSON file each)
when one is given, so a script run again finds them. An entry that cannot be read is absent.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from webfovea.harness import Observation
from webfovea.record.atomic import write_json_atomic

VERSION = 1


def state_key(obs: Observation, mode: str) -> str | None:
    """The page state a reply was made against (None: the capture has no digest, never cached)."""
    digest = obs.shot.digest
    if digest is None:
        return None
    payload = {
        "url": obs.url,
        "mode": mode,
        "space": obs.shot.coordinate_convention,
        "size": list(obs.image.size),
        "pixels": digest.hex(),
        "snapshot": hashlib.sha256(obs.snapshot.encode()).hexdigest() if obs.snapshot else None,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def call_key(kind: str, instruction: str, state: str, schema: Any = None) -> str:
    payload = {"kind": kind, "instruction": instruction, "state": state, "schema": schema, "v": VERSION}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class CallCache:
    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder).expanduser() if folder is not None else None
        self._memory: dict[str, dict[str, Any]] = {}
        self.hits = 0

    def get(self, key: str) -> dict[str, Any] | None:
        entry = self._memory.get(key)
        if entry is None and self.folder is not None:
            entry = self._read(self.folder / f"{key}.json")
            if entry is not None:
                self._memory[key] = entry
        if entry is not None:
            self.hits += 1
        return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        entry = {**entry, "version": VERSION}
        self._memory[key] = entry
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_json_atomic(self.folder / f"{key}.json", entry)

    def drop(self, key: str) -> None:
        self._memory.pop(key, None)
        if self.folder is not None:
            (self.folder / f"{key}.json").unlink(missing_ok=True)

    @staticmethod
    def _read(path: Path) -> dict[str, Any] | None:
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and entry.get("version") == VERSION else None
