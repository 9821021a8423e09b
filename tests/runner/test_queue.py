"""The SQLite queue on its own: claims, resume rules, refusals. Real SQLite, several connections."""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from tests.runner.helpers import claim_all
from webfovea.record.files import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.runner.queue import QueueError, TaskQueue
from webfovea.task import Task


def tasks(n: int = 5, text: str = "do it") -> list[Task]:
    return [Task(task_id=f"t{i}", task=f"{text} {i}", website="http://127.0.0.1:1/") for i in range(n)]


def test_claims_across_processes_take_each_task_once(tmp_path: Path) -> None:
    q = TaskQueue(tmp_path)
    q.prepare(tasks(60))
    ctx = mp.get_context("spawn")
    pipes, procs = [], []
    for w in range(3):
        a, b = ctx.Pipe()
        p = ctx.Process(target=claim_all, args=(str(tmp_path), f"w{w}", b))
        p.start()
        pipes.append(a)
        procs.append(p)
    got = [a.recv() for a in pipes]
    for p in procs:
        p.join(20)
    flat = [t for g in got for t in g]
    assert sorted(flat) == sorted(f"t{i}" for i in range(60))  # every task, none twice
    assert all(r["attempts"] == 1 and r["state"] == "done" for r in q.tasks())


def test_resume_rules(tmp_path: Path) -> None:
    ts = tasks(4)
    q = TaskQueue(tmp_path)
    assert q.prepare(ts)["pending"] == 4
    q.register_worker("w0", 1, None)
    # t0 done with a result, t1 claimed by a run that died, t2 interrupted, t3 never started
    assert q.claim("w0") == "t0"
    write_result(tmp_path / "t0", TaskResult(task_id="t0", status="finished"))
    write_result(tmp_path / "t2", TaskResult(task_id="t2", status="interrupted"))
    assert q.claim("w0") == "t1"
    q.close()
    # t2 was never claimed in this fake history but has an interrupted result: that is enough
    q = TaskQueue(tmp_path)
    counts = q.prepare(ts)
    assert counts == {"pending": 2, "done": 1, "lost": 1, "requeued": 1}
    lost = read_result(tmp_path / "t1")
    assert lost is not None and lost.status == "worker_lost" and "never retried" in (lost.error or "")
    assert not (tmp_path / "t2").exists() and (tmp_path / ".interrupted" / "t2.1" / "result.json").exists()
    states = {r["task_id"]: r["state"] for r in q.tasks()}
    assert states == {"t0": "done", "t1": "done", "t2": "pending", "t3": "pending"}
    # a reordered task file is the same run
    TaskQueue(tmp_path).prepare(list(reversed(ts)))


def test_different_task_file_is_refused(tmp_path: Path) -> None:
    TaskQueue(tmp_path).prepare(tasks(3))
    with pytest.raises(QueueError, match="different task file"):
        TaskQueue(tmp_path).prepare(tasks(3, text="something else"))
    with pytest.raises(QueueError, match="different task file"):
        TaskQueue(tmp_path).prepare(tasks(4))


def test_corrupt_queue_is_refused(tmp_path: Path) -> None:
    (tmp_path / "queue.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(QueueError, match="corrupt"):
        TaskQueue(tmp_path)


@pytest.mark.parametrize("bad", ["../x", "a/b", "", ".hidden"])
def test_unsafe_or_duplicate_ids_are_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(QueueError, match="folder name"):
        TaskQueue(tmp_path).prepare([Task(task_id=bad, task="x", website="http://a/")])
    with pytest.raises(QueueError, match="more than once"):
        TaskQueue(tmp_path).prepare(tasks(2) + tasks(1))
