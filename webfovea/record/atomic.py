"""The one way record files are written and read back, and the one clock format they use.

Every JSON file of a run or task folder is written through `write_json_atomic`: the text goes
to a uniquely named temporary file in the same folder and is then renamed over the target, so
a reader (the runner's parent, `webfovea report`, a resumed run) sees the old file or the new
one, never half of one — even when two processes write the same file at once — and the
text is synced to disk before the rename, so a crash cannot leave a renamed but empty file.
Every secret value the process was given or loaded (`webfovea/secrets.py`) is replaced by
its placeholder here, on the way to the disk, and every provider-shaped key is redacted
(`scrubbed_text`, `scrubbed_data`): `append_step`, `TaskRecorder.save_snapshot`, the capture's
rows and the workflow cache write through these two functions too, so this is the one scrub
of every record text. A JSON file is scrubbed string by string, never as text: a secret that
reads like a number or like JSON syntax must not break the file around it.
Every string is made encodable first (`json_text`): a lone UTF-16 surrogate from a page
becomes U+FFFD and the record counts it (`replaced_characters`), instead of the write failing.
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

from webfovea.record.redact import redact_keys
from webfovea.secrets import scrub_data, scrub_text


class RecordError(ValueError):
    """A record file that exists but cannot be read; str(e) is one line naming the file."""


def now_iso() -> str:
    """The timestamp format of every record: UTC, ISO 8601, whole seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def encodable(text: str) -> tuple[str, int]:
    """`text` as UTF-8 can hold it, and how many characters were replaced: a lone UTF-16
    surrogate (a page's `document.title` may hold one) becomes U+FFFD, a split pair is joined."""
    try:
        text.encode("utf-8")
        return text, 0
    except UnicodeEncodeError:
        fixed = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return fixed, max(1, fixed.count("\ufffd") - text.count("\ufffd"))


def scrub(value: Any) -> tuple[Any, int]:
    """A JSON-like value with every string (keys too) made encodable; the count replaced."""
    if isinstance(value, str):
        return encodable(value)
    if isinstance(value, dict):
        out, n = {}, 0
        for k, v in value.items():
            k2, nk = scrub(k) if isinstance(k, str) else (k, 0)
            v2, nv = scrub(v)
            out[k2], n = v2, n + nk + nv
        return out, n
    if isinstance(value, list | tuple):
        items = [scrub(v) for v in value]
        return [v for v, _ in items], sum(n for _, n in items)
    return value, 0


def json_text(data: Any, *, indent: int | None = 2, note: str | None = None) -> str:
    """JSON text that can always be written as UTF-8. When a string had to be repaired (see
    `encodable`) and `note` names a key, a dict gets `note: <count>` so the record says so."""
    text = json.dumps(data, indent=indent, ensure_ascii=False, default=str)
    if encodable(text)[1] == 0:
        return text
    data, n = scrub(data)
    if note is not None and isinstance(data, dict):
        data[note] = n
    return json.dumps(data, indent=indent, ensure_ascii=False, default=str)


def scrubbed_text(text: str) -> str:
    """Record text without a secret: every value the process knows (secrets, loaded cookies
    and local storage, API keys: `webfovea/secrets.py`) as its placeholder, and every
    provider-shaped key (`AIza…`, `sk-…`) redacted, wherever it stands."""
    return redact_keys(scrub_text(text))


def scrubbed_data(value: Any) -> Any:
    """A JSON-like record, string by string as `scrubbed_text` (numbers stay numbers, so the
    JSON written from it stays valid whatever a secret looks like)."""
    value = scrub_data(value)
    if isinstance(value, str):
        return redact_keys(value)
    if isinstance(value, dict):
        return {k: scrubbed_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrubbed_data(v) for v in value]
    return value


def write_text_atomic(path: Path, text: str, *, durable: bool = True) -> Path:
    """Write `text` to `path` so that no reader ever sees a partial file, every secret value
    replaced by its placeholder (`webfovea/secrets.py`).

    `durable`: the text reaches the disk before the rename (fsync), so a crash or power loss
    leaves the old file or the new one, never a renamed file whose blocks were not written."""
    return _write_text(path, scrubbed_text(text), durable=durable)


def _write_text(path: Path, text: str, *, durable: bool = True) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Unique per process, thread and call: two writers of one file must not share a temp file
    # (a fixed `.tmp` name lets one writer rename the other's half-written text into place).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        # "x" creates the file with the process umask (mkstemp would make it owner-only).
        with tmp.open("x", encoding="utf-8") as f:
            f.write(encodable(text)[0])
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
        if durable:
            _sync_dir(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _sync_dir(folder: Path) -> None:
    """The rename itself reaches the disk (where the platform can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_json_atomic(path: Path, data: BaseModel | Any, *, note: str | None = None) -> Path:
    """Write a record (a Pydantic model, or plain JSON data) as indented UTF-8 JSON, atomically
    and durably. A string UTF-8 cannot hold is repaired (`json_text`; `note`: the key counting it)."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    # Scrubbed string by string, not as text: a secret that reads like a number or a key
    # must not break the JSON around it.
    return _write_text(path, json_text(scrubbed_data(data), note=note))


def append_json_line(path: Path, data: Any, *, sync: bool = False) -> None:
    """Append one JSON line (a log, a ledger), scrubbed as every record is, in one write call so
    a killed writer can only tear the last line. `sync`: on disk before returning."""
    line = json_text(scrubbed_data(data), indent=None)
    with Path(path).open("a", encoding="utf-8") as f:
        f.write(line + "\n")
        if sync:
            f.flush()
            os.fsync(f.fileno())


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
