"""The task queue: one SQLite file per output folder (`<out>/queue.sqlite`).

In a run only the driver opens it: workers reach it through the driver's channel
(runner/channel.py), so the file never has to live on a filesystem shared between nodes.
One connection may be used from several threads (the channel serves each request on its
own thread); an internal lock serialises them. Several processes may still open the file
(tools, tests): claims run under `BEGIN IMMEDIATE` and commit at once, so the write lock is
held for milliseconds.

Rules the queue enforces (the challenge's rules):
- a task is never retried once started: a task claimed by a run that died without writing
  its result gets a recorded failure (`worker_lost`) when the folder is reopened;
- the one exception is `interrupted` (the user pressed Ctrl-C): resuming the run is the
  user's request to finish those tasks, so they go back to pending (old folder kept aside);
- an output folder written by a different task file is refused before anything starts;
- the queue is not the only evidence: every claim is also appended to `<out>/.started.jsonl`
  (before the task is handed out) and each worker writes `<task>/.runner_starts`; a task with
  such evidence and no final result is recorded `worker_lost` even when queue.sqlite was
  moved away, replaced or rebuilt (the advice for a corrupt queue);
- the queue file is watched during the run (`check_intact`): replaced or damaged, the run
  stops cleanly instead of writing into a file nobody will read.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webfovea.record.atomic import append_json_line
from webfovea.record.files import check_result, failure_result, salvage_result, write_result
from webfovea.runner.identity import differences
from webfovea.task import Task, TaskIdError, check_task_ids

QUEUE_FILE = "queue.sqlite"
STARTED_LOG = ".started.jsonl"  # the driver's append-only claim ledger (survives the queue file)
STARTS_FILE = ".runner_starts"  # one line per time a worker started this task (in the task folder)
_SQLITE_MAGIC = b"SQLite format 3\x00"
# Non-final: a resumed run runs these again (the user stopped them, they did not fail).
NON_FINAL = frozenset({"interrupted"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    task_id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',      -- pending / claimed / done
    worker TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_at REAL,
    finished_at REAL,
    status TEXT
);
CREATE INDEX IF NOT EXISTS tasks_state ON tasks(state, position);
CREATE TABLE IF NOT EXISTS workers (
    worker_id TEXT PRIMARY KEY,
    pid INTEGER,
    endpoint TEXT,
    browser_pid INTEGER,
    task_id TEXT,
    stage TEXT,
    step INTEGER,
    heartbeat_at REAL,
    task_started_at REAL,
    restarts INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


class QueueError(RuntimeError):
    """A queue that cannot be used (corrupt file, different task file, bad task ids)."""


class RunChanged(QueueError):
    """The output folder holds a run with another model, configuration or task fields."""


def fingerprint(tasks: Sequence[Task]) -> str:
    """Hash of task ids and instructions. Order-free: a reordered task file is the same run."""
    pairs = sorted((t.task_id, t.task) for t in tasks)
    return hashlib.sha256(json.dumps(pairs, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def validate_tasks(tasks: Sequence[Task]) -> None:
    """Task ids become folder names: refuse duplicates and names that could escape the folder."""
    try:
        check_task_ids(t.task_id for t in tasks)
    except TaskIdError as e:
        raise QueueError(str(e)) from None


class TaskQueue:
    """A connection to `<out>/queue.sqlite`. Cheap to open; open one per process."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / QUEUE_FILE
        self._lock = threading.RLock()
        if not self.path.exists():
            # A queue moved away (the advice for a damaged one) can leave its -wal/-shm behind:
            # SQLite would replay that log into the new file. Keep them aside, unused.
            for side in ("-wal", "-shm", "-journal"):
                stale = self.path.with_name(self.path.name + side)
                if stale.exists():
                    stale.replace(stale.with_name(stale.name + ".orphaned"))
        try:
            self.db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA busy_timeout=30000")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            self.db.execute("SELECT count(*) FROM tasks").fetchone()
            st = os.stat(self.path)
            self._identity = (st.st_dev, st.st_ino)
        except sqlite3.DatabaseError as e:
            raise QueueError(
                f"the queue database {self.path} is corrupt or not a queue ({e}). "
                "Move it away (the task folders and their result.json files are kept) or use a new "
                "output folder."
            ) from None

    def check_intact(self) -> None:
        """Raise QueueError when queue.sqlite is no longer the file this connection opened
        (moved, replaced, deleted) or no longer an SQLite file (overwritten in place)."""
        try:
            st = os.stat(self.path)
            with open(self.path, "rb") as f:
                head = f.read(len(_SQLITE_MAGIC))
        except OSError as e:
            raise QueueError(
                f"the queue file {self.path} disappeared during the run ({e.strerror})"
            ) from None
        if (st.st_dev, st.st_ino) != self._identity:
            raise QueueError(f"the queue file {self.path} was replaced during the run")
        if head != _SQLITE_MAGIC:
            raise QueueError(
                f"the queue file {self.path} was overwritten during the run (not SQLite any more)"
            )

    def _same_run(self, db: sqlite3.Connection, ids_differ: bool, identity: dict[str, Any] | None) -> None:
        """Refuse a resume that is not the same run; an older queue adopts the identity."""
        row = db.execute("SELECT value FROM meta WHERE key='identity'").fetchone()
        if row is not None and identity is not None:
            diffs = differences(json.loads(row["value"]), identity)
            if diffs:
                raise RunChanged(
                    f"the output folder {self.out_dir} was written by a different task file, model or "
                    f"configuration ({'; '.join(diffs)}). Resume with what it was run with, use a new output "
                    "folder, or pass --fresh to set the earlier run aside and start again."
                )
        if ids_differ:
            raise RunChanged(
                f"the output folder {self.out_dir} was written by a different task file "
                "(task ids or instructions differ). Use a new output folder, or the original task file."
            )
        if row is None and identity is not None:
            db.execute("INSERT INTO meta(key, value) VALUES ('identity', ?)", (json.dumps(identity),))

    def _ledger(self, event: str, task_id: str) -> None:
        # Flushed and synced before the task is handed out: it must outlive a SIGKILLed driver.
        append_json_line(
            self.out_dir / STARTED_LOG, {"event": event, "task_id": task_id, "at": time.time()}, sync=True
        )

    def started_by_ledger(self) -> set[str]:
        """Ids the ledger last saw claimed (not put back since): started by some run."""
        last: dict[str, str] = {}
        path = self.out_dir / STARTED_LOG
        if path.exists():
            for line in path.read_text(errors="replace").splitlines():
                try:
                    e = json.loads(line)
                    last[str(e["task_id"])] = str(e["event"])
                except (ValueError, KeyError, TypeError):
                    continue  # a line torn by a crash says nothing
        return {tid for tid, ev in last.items() if ev == "claimed"}

    def close(self) -> None:
        with self._lock:
            self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A short write transaction taken at once (no lock upgrade deadlocks)."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(r) for r in self.db.execute(sql, args).fetchall()]

    # -- set-up (parent only) ---------------------------------------------------------------

    def prepare(self, tasks: Sequence[Task], identity: dict[str, Any] | None = None) -> dict[str, int]:
        """Load the task list, check it is the same run, reconcile with result files on disk.

        `identity` (runner/identity.py: model, config, each task's fields) is stored on the first
        run; a resume whose identity differs is refused naming what changed. Without it only the
        task ids and instructions are compared (the older check, kept for tools and tests).

        Returns counts: pending (to run), done (final result present), lost (claimed by a
        dead run, now recorded as worker_lost), requeued (interrupted, to run again).
        """
        validate_tasks(tasks)
        fp = fingerprint(tasks)
        by_id = {t.task_id: t for t in tasks}
        counts = {"pending": 0, "done": 0, "lost": 0, "requeued": 0}
        started = self.started_by_ledger()
        with self._write() as db:
            row = db.execute("SELECT value FROM meta WHERE key='fingerprint'").fetchone()
            if row is None:
                if db.execute("SELECT count(*) FROM tasks").fetchone()[0]:
                    raise QueueError(f"{self.path} holds tasks but no task-file fingerprint; it is damaged")
                db.execute("INSERT INTO meta(key, value) VALUES ('fingerprint', ?)", (fp,))
                if identity is not None:
                    db.execute("INSERT INTO meta(key, value) VALUES ('identity', ?)", (json.dumps(identity),))
                db.executemany(
                    "INSERT INTO tasks(task_id, position) VALUES (?, ?)",
                    [(t.task_id, i) for i, t in enumerate(tasks)],
                )
            else:
                self._same_run(db, row["value"] != fp, identity)
            rows = db.execute("SELECT task_id, state, status FROM tasks").fetchall()
            for r in rows:
                tid = r["task_id"]
                task_dir = self.out_dir / tid
                res, damaged = check_result(task_dir)
                if damaged and r["state"] == "done" and r["status"] and r["status"] not in NON_FINAL:
                    # The file is not whole but the queue saw the task end: its word stands.
                    res = salvage_result(task_dir, by_id.get(tid), tid, r["status"], damaged)
                if res is not None and res.status not in NON_FINAL:
                    db.execute("UPDATE tasks SET state='done', status=? WHERE task_id=?", (res.status, tid))
                    counts["done"] += 1
                elif res is not None:  # interrupted: keep the evidence, run again
                    _set_aside(task_dir, self.out_dir / ".interrupted")
                    self._ledger("requeued", tid)
                    db.execute(
                        "UPDATE tasks SET state='pending', status=NULL, worker=NULL WHERE task_id=?", (tid,)
                    )
                    counts["requeued"] += 1
                elif r["state"] in ("claimed", "done") or tid in started or (task_dir / STARTS_FILE).exists():
                    # Started by an earlier run that died before writing a result: never re-run.
                    # The ledger and the folder's own evidence count even when the queue
                    # file is new (moved away after damage): the queue alone may have forgotten.
                    if damaged:  # kept beside the new result, as evidence
                        (task_dir / "result.json").replace(task_dir / "result.json.damaged")
                    write_result(
                        task_dir,
                        failure_result(
                            by_id.get(tid),
                            tid,
                            "worker_lost",
                            "the run that started this task ended without writing its result; "
                            "tasks are never retried once started",
                        ),
                    )
                    db.execute("UPDATE tasks SET state='done', status='worker_lost' WHERE task_id=?", (tid,))
                    counts["lost"] += 1
                else:
                    counts["pending"] += 1
            db.execute("DELETE FROM workers")
            db.execute("DELETE FROM meta WHERE key='stop'")  # written by runs before the driver channel
        counts["pending"] += counts["requeued"]
        return counts

    # -- workers ----------------------------------------------------------------------------

    def register_worker(self, worker_id: str, pid: int, endpoint: str | None, restarts: int = 0) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO workers(worker_id, pid, endpoint, stage, heartbeat_at, restarts) "
                "VALUES (?, ?, ?, 'launching', ?, ?) ON CONFLICT(worker_id) DO UPDATE SET "
                "pid=excluded.pid, endpoint=excluded.endpoint, stage='launching', task_id=NULL, step=NULL, "
                "heartbeat_at=excluded.heartbeat_at, browser_pid=NULL, restarts=excluded.restarts",
                (worker_id, pid, endpoint, time.time(), restarts),
            )

    def heartbeat(self, worker_id: str, **fields: Any) -> None:
        """Refresh the heartbeat; optionally set stage, step, task_id, browser_pid, task_started_at."""
        allowed = {"stage", "step", "task_id", "browser_pid", "task_started_at", "pid"}
        bad = set(fields) - allowed
        if bad:
            raise ValueError(f"unknown worker fields {sorted(bad)}")
        cols = ", ".join(f"{k}=?" for k in fields)
        sql = f"UPDATE workers SET heartbeat_at=?{', ' + cols if cols else ''} WHERE worker_id=?"
        with self._write() as db:
            db.execute(sql, (time.time(), *fields.values(), worker_id))

    def workers(self) -> list[dict[str, Any]]:
        return self._read("SELECT * FROM workers ORDER BY worker_id")

    # -- tasks ------------------------------------------------------------------------------

    def claim(self, worker_id: str) -> str | None:
        """Atomically take the next pending task (lowest position) for this worker."""
        with self._write() as db:
            row = db.execute(
                "SELECT task_id FROM tasks WHERE state='pending' ORDER BY position LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            tid: str = row["task_id"]
            self._ledger("claimed", tid)  # inside the write lock: the ledger is as ordered as the queue
            t = time.time()
            db.execute(
                "UPDATE tasks SET state='claimed', worker=?, attempts=attempts+1, claimed_at=? "
                "WHERE task_id=?",
                (worker_id, t, tid),
            )
            db.execute(
                "UPDATE workers SET task_id=?, stage='task', step=0, task_started_at=?, heartbeat_at=? "
                "WHERE worker_id=?",
                (tid, t, t, worker_id),
            )
        return tid

    def finish(self, task_id: str, status: str) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE tasks SET state='done', status=?, finished_at=? WHERE task_id=?",
                (status, time.time(), task_id),
            )
            db.execute(
                "UPDATE workers SET task_id=NULL, stage='idle', step=NULL, task_started_at=NULL "
                "WHERE task_id=?",
                (task_id,),
            )

    def release(self, task_id: str) -> None:
        """A claim whose answer never reached its worker: the task is pending again (it never ran)."""
        with self._write() as db:
            self._ledger("requeued", task_id)
            db.execute(
                "UPDATE tasks SET state='pending', worker=NULL, claimed_at=NULL WHERE task_id=? AND state='claimed'",
                (task_id,),
            )

    def handed_in_by(self, task_id: str, worker_id: str) -> bool:
        """Is the task done, handed in by this worker (a retried hand-in)?"""
        rows = self._read("SELECT state, worker FROM tasks WHERE task_id=?", (task_id,))
        return bool(rows) and rows[0]["state"] == "done" and rows[0]["worker"] == worker_id

    def claimed_by(self, worker_id: str) -> list[str]:
        """Tasks this worker claimed and did not finish (what a dead worker leaves behind)."""
        rows = self._read(
            "SELECT task_id FROM tasks WHERE state='claimed' AND worker=? ORDER BY position", (worker_id,)
        )
        return [r["task_id"] for r in rows]

    def tasks(self) -> list[dict[str, Any]]:
        return self._read("SELECT * FROM tasks ORDER BY position")

    def counts(self) -> dict[str, int]:
        out = {"pending": 0, "claimed": 0, "done": 0}
        for r in self._read("SELECT state, count(*) AS n FROM tasks GROUP BY state"):
            out[r["state"]] = r["n"]
        return out


def _set_aside(task_dir: Path, dest_root: Path) -> None:
    """Move an interrupted task's folder aside so the re-run starts from an empty folder."""
    if not task_dir.exists():
        return
    dest_root.mkdir(parents=True, exist_ok=True)
    n = 1
    while (dest_root / f"{task_dir.name}.{n}").exists():
        n += 1
    shutil.move(str(task_dir), str(dest_root / f"{task_dir.name}.{n}"))
