"""Functions that run in spawned child processes (they must be importable by module path)."""

from __future__ import annotations

from pathlib import Path

from webfovea.runner.queue import TaskQueue


def claim_all(out: str, wid: str, conn) -> None:  # type: ignore[no-untyped-def]
    q = TaskQueue(Path(out))
    got = []
    while (tid := q.claim(wid)) is not None:
        got.append(tid)
        q.finish(tid, "finished")
    conn.send(got)
