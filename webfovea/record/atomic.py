"""The one way record files are written and read back, and the one clock format they use.

Every JSON file of a run or task folder is written through `write_json_atomic`: the text goes
to a uniquely named temporary file in the same folder and is then renamed over the target, so
a reader (the runner's parent, `webfovea report`, a resumed run) sees the old file or the new
one, never half of one — even when two processes write the same file at once.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ValidationError, model_serializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler


class RecordError(ValueError):
    """A record file that exists but cannot be read; str(e) is one line naming the file."""


def now_iso() -> str:
    """The timestamp format of every record: UTC, ISO 8601, whole seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_text_atomic(path: Path, text: str) -> Path:
    """Write `text` to `path` so that no reader ever sees a partial file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Unique per process, thread and call: two writers of one file must not share a temp file
    # (a fixed `.tmp` name lets one writer rename the other's half-written text into place).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        # "x" creates the file with the process umask (mkstemp would make it owner-only).
        with tmp.open("x", encoding="utf-8") as f:
            f.write(text)
        # No fsync: the contract is "never half a file" for concurrent readers, which the rename
        # gives; fsync would cost milliseconds per file on a busy disk for power-loss safety.
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def write_json_atomic(path: Path, data: BaseModel | Any) -> Path:
    """Write a record (a Pydantic model, or plain JSON data) as indented UTF-8 JSON, atomically."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    return write_text_atomic(path, json.dumps(data, indent=2, ensure_ascii=False, default=str))


M = TypeVar("M", bound=BaseModel)


def read_json_model(path: Path, model: type[M]) -> M | None:
    """The file parsed as `model`; None when it does not exist; RecordError when it is unreadable."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot read ({_one_line(e)})") from None
    try:
        return model.model_validate_json(text)
    except ValidationError as e:
        raise RecordError(f"{path}: not a valid {path.name} ({_one_line(e)})") from None


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:300]


class Record(BaseModel):
    """Base of the record schemas: fields listed in `_absent_when_none` are left out of the JSON
    when None, instead of written as null — for keys whose absence has always meant "none"
    (a summary's `note`, a capture's `error`), so files keep the shape readers already know."""

    _absent_when_none: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _drop_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in self._absent_when_none:
            if data.get(key) is None:
                data.pop(key, None)
        return data
