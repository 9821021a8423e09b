"""The task folder's files: one writer and one reader each.

result.json      write_result / read_result (check_result says why it could not be read)
trajectory.jsonl append_step / read_trajectory
capture.json     write_capture / read_capture (record/capture.py produces it)
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from webfovea.config import HarnessConfig
from webfovea.record.atomic import (
    RecordError,
    json_text,
    now_iso,
    read_json_model,
    scrubbed_data,
    write_json_atomic,
)
from webfovea.record.redact import redact_json, redact_text, redact_url
from webfovea.record.schema import (
    CAPTURE_JSON,
    RESULT_JSON,
    TRAJECTORY_JSONL,
    CaptureFile,
    StepRecord,
    TaskResult,
)
from webfovea.task import Task

REPLACED = "replaced_characters"  # the field counting the characters a record had to repair

__all__ = [
    "TrajectoryError",
    "append_step",
    "check_result",
    "config_fields",
    "failure_result",
    "now_iso",
    "read_capture",
    "read_result",
    "read_trajectory",
    "redact_result",
    "redact_step",
    "salvage_result",
    "update_result",
    "write_capture",
    "write_labels",
    "write_result",
]


def config_fields(config: HarnessConfig) -> dict[str, Any]:
    """What result.json and run.json record about the harness: the whole config, and the
    profile and disabled list derived from it the one way (HarnessConfig.disabled)."""
    return {
        "profile": config.profile,
        "disabled": config.disabled(),
        "outside_rules": config.outside_rules(),
        "config": config.model_dump(mode="json"),
    }


# ---------------------------------------------------------------- result.json


def write_result(task_dir: Path, result: TaskResult) -> Path:
    """Write result.json atomically so a reader never sees half a file, redacted."""
    return write_json_atomic(Path(task_dir) / RESULT_JSON, redact_result(result), note=REPLACED)


def redact_result(result: TaskResult) -> TaskResult:
    """result.json never echoes credentials (an error quoting a base URL with user:pass@ or ?key=)."""
    return result.model_copy(
        update={
            "error": redact_text(result.error),
            "website": redact_url(result.website) if result.website else result.website,
        }
    )


def update_result(task_dir: Path, **fields: Any) -> TaskResult | None:
    """Set fields of an existing result.json (the truth written after a run); None when there is none."""
    result = read_result(task_dir)
    if result is None:
        return None
    unknown = sorted(set(fields) - set(TaskResult.model_fields))
    if unknown:
        raise RecordError(f"result.json has no field(s) {', '.join(unknown)}")
    updated = TaskResult.model_validate({**result.model_dump(), **fields})
    write_result(task_dir, updated)
    return updated


def write_labels(task_dir: Path, *, taxonomy: str | None, stage: str | None) -> TaskResult | None:
    """Add the failure labels to a task's result.json (the summary computes them after the run).

    Rewritten only when they change, atomically; None when there is no readable result."""
    result = read_result(task_dir)
    if result is None:
        return None
    if (result.taxonomy, result.stage) == (taxonomy, stage):
        return result
    labelled = result.model_copy(update={"taxonomy": taxonomy, "stage": stage})
    write_result(task_dir, labelled)
    return labelled


def check_result(task_dir: Path) -> tuple[TaskResult | None, str | None]:
    """(result, None); (None, None) when there is no result.json; (None, why) when it is unreadable."""
    try:
        return read_json_model(Path(task_dir) / RESULT_JSON, TaskResult), None
    except RecordError as e:
        return None, f"unreadable result.json: {e}"


def read_result(task_dir: Path) -> TaskResult | None:
    """The task's result.json, or None when missing or unreadable (the runner treats both as
    "no final result"; use check_result to learn which)."""
    return check_result(task_dir)[0]


_SALVAGED = ("answer", "model", "started_at", "ended_at", "profile", "session_id")
_DAMAGED = ".damaged"


def salvage_result(task_dir: Path, task: Task | None, task_id: str, status: str, why: str) -> TaskResult:
    """A result.json that is no longer whole (cut by a crash, a full disk) for a task the queue
    knew ended under `status`: the damaged file is kept as result.json.damaged, and the new
    result takes the queue's status and what the damaged text still holds whole (the answer,
    steps ...). The error says so; nothing is invented."""
    path = Path(task_dir) / RESULT_JSON
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        path.replace(path.with_name(RESULT_JSON + _DAMAGED))
    except OSError:
        text = ""
    fields: dict[str, Any] = {}
    for key in _SALVAGED:
        m = re.search(rf'"{key}":\s*("(?:[^"\\]|\\.)*")', text)
        if m:
            with contextlib.suppress(ValueError):
                fields[key] = json.loads(m.group(1))
    m = re.search(r'"steps":\s*(\d+)', text)
    if m:
        fields["steps"] = int(m.group(1))
    if status != "finished":
        fields.pop("answer", None)
    result = failure_result(
        task,
        task_id,
        status,
        f"result.json was damaged ({why}); kept as {RESULT_JSON}{_DAMAGED}. The status is the "
        "queue's record of how the task ended"
        + ("; the answer was recovered from the damaged file" if fields.get("answer") is not None else ""),
    )
    result = result.model_copy(update=fields)
    write_result(task_dir, result)
    return result


def failure_result(
    task: Task | None,
    task_id: str,
    status: str,
    error: str,
    *,
    config: HarnessConfig | None = None,
    **extra: Any,
) -> TaskResult:
    """A result for a task that did not end by itself (worker lost, timed out, interrupted).

    Pass the run's `config` so this result records the configuration like any other."""
    fields: dict[str, Any] = config_fields(config) if config is not None else {}
    fields.update(extra)
    return TaskResult(
        task_id=task_id,
        status=status,
        error=error,
        task=task.task if task else None,
        website=task.website if task else None,
        ended_at=now_iso(),
        **fields,
    )


# ---------------------------------------------------------------- trajectory.jsonl


class TrajectoryError(RecordError):
    """A trajectory line that is not a step record; the message names the file and line."""


def append_step(task_dir: Path, record: StepRecord) -> None:
    """Append one step. One write call per line, so a killed writer can only tear the last line."""
    clean = redact_step(record)
    try:
        line = clean.model_dump_json()
        # String by string, as write_json_atomic does.
        line = json.dumps(scrubbed_data(json.loads(line)), ensure_ascii=False, separators=(",", ":"))
    except PydanticSerializationError:  # a string UTF-8 cannot hold (a lone surrogate from the page)
        line = json_text(scrubbed_data(clean.model_dump(mode="json")), indent=None, note=REPLACED)
    with (Path(task_dir) / TRAJECTORY_JSONL).open("a", encoding="utf-8") as f:
        f.write(line + "\n")


def redact_step(record: StepRecord) -> StepRecord:
    """What the harness wrote about the page (fingerprints, notes, rejections) without secrets.
    The model's own reply stays as it wrote it: replay needs it."""
    return record.model_copy(
        update={
            "feedback": redact_text(record.feedback) or "",
            "rejection": redact_text(record.rejection),
            "fingerprint_before": redact_json(record.fingerprint_before),
            "fingerprint_after": redact_json(record.fingerprint_after),
        }
    )


def read_trajectory(path: Path, *, strict: bool = True) -> list[StepRecord]:
    """The step records of a trajectory.jsonl (or of the task folder holding one), in file order.

    A torn last line — no newline at its end and not valid JSON, what a writer killed mid-line
    leaves — is dropped. Any other bad line raises TrajectoryError naming it, unless
    `strict=False` (the report shows what it can of a damaged run). No file: an empty list.
    """
    path = Path(path)
    if path.is_dir():
        path = path / TRAJECTORY_JSONL
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise TrajectoryError(f"{path}: cannot read ({' '.join(str(e).split())})") from None
    # Split bytes, not text: a torn last line may end inside a multi-byte character.
    lines = data.split(b"\n")  # the piece after the final newline is empty unless the last line is torn
    steps: list[StepRecord] = []
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            steps.append(_parse_step(raw, path, lineno))
        except _NotJson:
            if lineno == len(lines) or not strict:  # torn last line, or a lenient reader
                continue
            raise
        except TrajectoryError:
            if not strict:
                continue
            raise
    return steps


class _NotJson(TrajectoryError):
    pass


def _parse_step(raw: bytes, path: Path, lineno: int) -> StepRecord:
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _NotJson(f"{path} line {lineno} is not valid UTF-8") from None
    except json.JSONDecodeError as e:
        raise _NotJson(f"{path} line {lineno} is not valid JSON ({e.msg})") from None
    try:
        return StepRecord.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in err["loc"][:1])
        if not field:
            raise TrajectoryError(f"{path} line {lineno} is not a step record (a JSON object)") from None
        if err["type"] == "missing":
            raise TrajectoryError(f"{path} line {lineno} has no {field} field") from None
        raise TrajectoryError(f"{path} line {lineno} has a malformed {field} field ({err['msg']})") from None


# ---------------------------------------------------------------- capture.json


def write_capture(task_dir: Path, capture: CaptureFile) -> Path:
    return write_json_atomic(Path(task_dir) / CAPTURE_JSON, capture)


def read_capture(task_dir: Path) -> CaptureFile | None:
    """capture.json, or None when absent; RecordError when unreadable."""
    return read_json_model(Path(task_dir) / CAPTURE_JSON, CaptureFile)
