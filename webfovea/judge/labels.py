"""People's labels of runs, as `webfovea judge compare` reads them (docs/judge.md, "Label files").

A label file is JSON Lines, one object per line:

    {"task_id": "stats-cpi-vn", "label": "success", "note": "filters in the request",
     "labeller": "ana", "time": "2026-12-07T14:03:00Z"}

`task_id` and `label` (`success`, `failure` or `unsure`) are required; `note`, `labeller` and
`time` (ISO 8601) are optional; no other field is allowed, so a foreign file is refused rather
than half-read. A later line for the same task overrides an earlier one: relabelling appends.
Blank lines are skipped. A `.csv` file holds the same columns under a header row. Any line that
is not a label refuses the whole file, naming the file, the line number and what is wrong.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

LABELS = ("success", "failure", "unsure")
FIELDS = ("task_id", "label", "note", "labeller", "time")
LABEL_FILE = "labels.jsonl"  # the label file beside a run (RUN_DIR/labels.jsonl)


class LabelFileError(ValueError):
    """A label file that cannot be read; the message names the file and the wrong line."""


@dataclass(frozen=True)
class Label:
    task_id: str
    label: str  # success | failure | unsure
    note: str = ""
    labeller: str = ""
    time: str = ""

    @property
    def success(self) -> bool | None:
        """True, False, or None for unsure."""
        return None if self.label == "unsure" else self.label == "success"


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def label_of(row: Any, where: str) -> Label:
    """One label from a parsed row, or LabelFileError saying what is wrong at `where`."""
    if not isinstance(row, dict):
        kind = "a JSON array" if isinstance(row, list) else type(row).__name__
        raise LabelFileError(f"{where}: {kind}, not a label object {{task_id, label, ...}}")
    unknown = sorted(str(k) for k in row if k not in FIELDS)
    if unknown:
        raise LabelFileError(
            f"{where}: unknown field(s) {', '.join(repr(k) for k in unknown)}; "
            f"a label holds {', '.join(FIELDS)} (is this a label file?)"
        )
    tid = row.get("task_id")
    if not isinstance(tid, str) or not tid.strip():
        raise LabelFileError(f"{where}: task_id must be a non-empty string, not {tid!r}")
    label = row.get("label")
    if label not in LABELS:
        raise LabelFileError(f"{where}: label {label!r} of {tid!r} is not one of {', '.join(LABELS)}")
    texts: dict[str, str] = {}
    for key in ("note", "labeller", "time"):
        value = row.get(key)
        if value is not None and not isinstance(value, str):
            raise LabelFileError(f"{where}: {key} of {tid!r} must be a string, not {value!r}")
        texts[key] = value or ""
    if texts["time"]:
        try:
            datetime.fromisoformat(texts["time"])
        except ValueError:
            raise LabelFileError(
                f"{where}: time {texts['time']!r} of {tid!r} is not an ISO 8601 date-time"
            ) from None
    return Label(task_id=tid.strip(), label=str(label), **texts)


def jsonl_rows(path: Path, data: bytes, error: type[ValueError] = LabelFileError) -> list[tuple[str, Any]]:
    """Each non-blank line of a JSONL file people write (labels, manual reviews) with where it is;
    `error` names the line that is not UTF-8 or not JSON."""
    rows = []
    for n, raw in enumerate(data.split(b"\n"), start=1):
        where = f"{path} line {n}"
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise error(f"{where}: not UTF-8 text") from None
        if not line:
            continue
        try:
            rows.append((where, json.loads(line)))
        except json.JSONDecodeError as e:
            raise error(f"{where}: not JSON ({e.msg}): {_shown(line)}") from None
    return rows


def _csv_rows(path: Path, data: bytes) -> list[tuple[str, Any]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LabelFileError(f"{path}: not UTF-8 text") from None
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header or "task_id" not in header or "label" not in header:
        raise LabelFileError(f"{path} line 1: the header must name task_id and label (got {header!r})")
    unknown = [c for c in header if c not in FIELDS]
    if unknown:
        raise LabelFileError(
            f"{path} line 1: unknown column(s) {unknown!r}; a label holds {', '.join(FIELDS)}"
        )
    rows: list[tuple[str, Any]] = []
    for cells in reader:
        where = f"{path} line {reader.line_num}"
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise LabelFileError(f"{where}: {len(cells)} cell(s) under a header of {len(header)}")
        rows.append((where, {k: (v if v != "" else None) for k, v in zip(header, cells, strict=True)}))
    return rows


def read_labels(path: Path) -> dict[str, Label]:
    """Task id -> its label (the last line for a task wins), or LabelFileError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise LabelFileError(f"cannot read the label file {path}: {e.strerror or e}") from None
    rows = _csv_rows(path, data) if path.suffix.lower() == ".csv" else jsonl_rows(path, data)
    labels: dict[str, Label] = {}
    for where, row in rows:
        label = label_of(row, where)
        labels[label.task_id] = label
    if not labels:
        raise LabelFileError(f"{path} holds no labels")
    return labels


def label_line(label: Label) -> str:
    """The JSONL line for a label (what a labelling tool appends)."""
    row = {"task_id": label.task_id, "label": label.label, "note": label.note, "labeller": label.labeller}
    if label.time:
        row["time"] = label.time
    return json.dumps(row, ensure_ascii=False)


def append_label(path: Path, label: Label) -> None:
    """Add a label to a label file (a later line relabels), checked as `read_labels` checks it,
    on a line of its own even when the file's last line lacks its newline."""
    line = label_line(label_of(json.loads(label_line(label)), "the new label"))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as f:
        if f.tell() and path.read_bytes()[-1:] != b"\n":
            f.write(b"\n")
        f.write(line.encode("utf-8") + b"\n")
