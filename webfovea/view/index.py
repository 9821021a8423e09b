"""What the viewer's task list knows about a run, read lazily.

A page of the list reads only its own tasks' result.json (through `record/confined.py`); the
judges' verdicts come from each judge folder's summary.json (`per_task`: one file per method,
not one per task), the labels from RUN/labels.jsonl (judge/labels.py). Filtering by status or by
disagreement needs every task's status: a background thread reads the result.json files once
(never a trajectory or a capture) and the filters wait for it. Runs are finished when viewed,
so the index is not refreshed; labels and judge summaries are re-read when their files change.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.judge.compare import JUDGES_DIR
from webfovea.judge.labels import LABEL_FILE, Label, LabelFileError, read_labels
from webfovea.judge.run import JUDGE_DIR
from webfovea.judge.verification import QUEUE_FILE, Queue, parse_queue
from webfovea.record.confined import MAX_FILE_BYTES, read_text

RESULT = "result.json"
NOT_TASKS = frozenset({JUDGE_DIR, JUDGES_DIR, "manuals"})
RESULT_LIMIT = 4 * 1024 * 1024  # a result.json is a few kB; a huge one is not read for a list


@dataclass(frozen=True)
class TaskRow:
    folder: str  # the folder's name inside the run (the viewer's URLs use it)
    task_id: str
    status: str
    answer: Any
    task: str
    problem: str = ""  # why result.json could not be read


def read_row(run_dir: Path, folder: str) -> TaskRow:
    """One list row from the task's result.json only."""
    try:
        data = json.loads(read_text(run_dir, Path(folder) / RESULT, limit=RESULT_LIMIT))
    except (OSError, ValueError) as e:  # absent, refused (a link out, a FIFO, too large), not JSON
        return TaskRow(folder, folder, "", None, "", problem=" ".join(str(e).split())[:200])
    if not isinstance(data, dict):
        return TaskRow(folder, folder, "", None, "", problem="result.json is not a JSON object")
    return TaskRow(
        folder=folder,
        task_id=str(data.get("task_id") or folder),
        status=str(data.get("status") or ""),
        answer=data.get("answer"),
        task=str(data.get("task") or ""),
    )


def _task_folders(run_dir: Path) -> list[str]:
    """Sub-folders that hold a result.json, by name: one directory listing and a stat each."""
    names = []
    with os.scandir(run_dir) as entries:
        for entry in entries:
            if entry.name.startswith(".") or entry.name in NOT_TASKS:
                continue
            if entry.is_dir(follow_symlinks=False) and os.path.exists(os.path.join(entry.path, RESULT)):
                names.append(entry.name)
    return sorted(names)


class _ByMtime:
    """A file's parsed content, re-read only when its modification time or size changes."""

    def __init__(self) -> None:
        self._seen: dict[Path, tuple[tuple[int, int], Any]] = {}
        self._lock = threading.Lock()

    def get(self, path: Path, parse: Any) -> Any:
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size)
        with self._lock:
            hit = self._seen.get(path)
            if hit and hit[0] == key:
                return hit[1]
        value = parse(path)
        with self._lock:
            self._seen[path] = (key, value)
        return value


def _per_task(path: Path) -> tuple[str, dict[str, bool | None]]:
    try:
        data = json.loads(read_text(path.parent, path.name, limit=MAX_FILE_BYTES))
    except (OSError, ValueError):
        return "", {}
    if not isinstance(data, dict) or not isinstance(data.get("per_task"), dict):
        return "", {}
    verdicts = {str(k): v if isinstance(v, bool) else None for k, v in data["per_task"].items()}
    return str(data.get("method") or ""), verdicts


def _queue(path: Path) -> Queue:
    try:
        return parse_queue(read_text(path.parent, path.name, limit=MAX_FILE_BYTES, errors="replace"))
    except (OSError, ValueError):  # refused (a link out, too large) or unreadable: no queue shown
        return Queue()


def _labels(path: Path) -> tuple[dict[str, Label], str]:
    try:
        return read_labels(path), ""
    except LabelFileError as e:
        return {}, str(e)


class RunIndex:
    """One run folder as the viewer lists it."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir).resolve()
        self.folders = _task_folders(self.run_dir)
        self._files = _ByMtime()
        self._rows: dict[str, TaskRow] = {}
        self._full = threading.Event()
        self._lock = threading.Lock()
        self._started = False

    @property
    def name(self) -> str:
        return self.run_dir.name

    def start_indexing(self) -> None:
        """Read every result.json in a background thread (once; later calls do nothing)."""
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._index_all, name=f"view-index-{self.name}", daemon=True).start()

    def _index_all(self) -> None:
        try:
            for folder in self.folders:
                self.row(folder)
        finally:
            self._full.set()

    def indexed(self) -> int:
        with self._lock:
            return len(self._rows)

    def row(self, folder: str) -> TaskRow:
        with self._lock:
            hit = self._rows.get(folder)
        if hit is None:
            hit = read_row(self.run_dir, folder)
            with self._lock:
                self._rows[folder] = hit
        return hit

    def statuses(self) -> list[str]:
        """The statuses of the tasks read so far (all of them once the index is complete)."""
        with self._lock:
            return sorted({r.status for r in self._rows.values() if r.status})

    def all_rows(self, timeout: float | None = None) -> list[TaskRow] | None:
        """Every row, once the background index has read them (None: still reading)."""
        self.start_indexing()
        if not self._full.wait(timeout):
            return None
        return [self.row(f) for f in self.folders]

    def judge_dirs(self) -> list[tuple[str, Path]]:
        """(method, folder) of each judge folder: RUN/judges/<method>/, then RUN/judge/ unless its
        method already has its own folder (`judge compare` reads the same one first)."""
        out: list[tuple[str, Path]] = []
        judges = self.run_dir / JUDGES_DIR
        if judges.is_dir():
            out += [(d.name, d) for d in sorted(judges.iterdir()) if (d / "summary.json").is_file()]
        own = self.run_dir / JUDGE_DIR
        if (own / "summary.json").is_file():
            method, _ = self._files.get(own / "summary.json", _per_task)
            if method not in dict(out):
                out.append((method or JUDGE_DIR, own))
        return out

    def judges(self) -> dict[str, dict[str, bool | None]]:
        """Method -> task id -> verdict, from each judge folder's summary.json (`per_task`)."""
        return {m: self._files.get(d / "summary.json", _per_task)[1] for m, d in self.judge_dirs()}

    @property
    def labels_path(self) -> Path:
        return self.run_dir / LABEL_FILE

    def queue(self) -> Queue:
        """Protocol III's verification queue (judge/verification.py); empty without one."""
        got = self._files.get(self.run_dir / QUEUE_FILE, _queue)
        return got if got is not None else Queue()

    def labels(self) -> tuple[dict[str, Label], str]:
        """Task id -> the latest label, and the label file's error ('' when it reads)."""
        got = self._files.get(self.labels_path, _labels)
        return got if got is not None else ({}, "")


VERIFY = ("", "pending", "done")  # the list's queue filter: any, to verify, verified


def in_queue(queue: Queue, labels: dict[str, Label], task_id: str, verify: str) -> bool:
    """Whether a task passes the queue filter: queued and unlabelled (pending) or labelled (done)."""
    if not verify:
        return True
    if task_id not in queue.entries:
        return False
    return (task_id in labels) == (verify == "done")


def disagree(verdicts: list[bool | None], label: Label | None) -> bool:
    """Judges disagree with each other, or with the person's label (unsure and no verdict aside)."""
    said = {v for v in verdicts if v is not None}
    if label is not None and label.success is not None:
        said.add(label.success)
    return len(said) > 1
