"""The driver channel on its own: real HTTP on loopback, a real queue, real archives.
Only the token's holder gets in; a retired incarnation can neither claim nor hand in;
an uploaded archive places only the claimed task's folder and nothing outside it."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import httpx
import pytest

from webfovea.record.files import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.runner.channel import ChannelServer, Driver
from webfovea.runner.client import DriverClient, Retired
from webfovea.runner.queue import TaskQueue
from webfovea.runner.supervisor import Events
from webfovea.runner.transfer import pack_folders
from webfovea.task import Task

TOKEN = "t0k3n"


def _tasks(n: int) -> list[Task]:
    return [Task(task_id=f"t{i}", task=f"do {i}", website="http://127.0.0.1:1/") for i in range(n)]


@pytest.fixture
def channel(tmp_path: Path):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.mkdir()
    q = TaskQueue(out)
    tasks = _tasks(3)
    q.prepare(tasks)
    driver = Driver(q, tasks, Events(out))
    with ChannelServer(driver, "127.0.0.1", TOKEN) as server:
        yield driver, server.url, out
    q.close()


def _evil_archive(path: Path) -> Path:
    """A folder for t0 plus members that try to leave the output folder."""
    with tarfile.open(path, "w:gz") as tar:

        def add(name: str, data: bytes = b"x", **kw: object) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            for k, v in kw.items():
                setattr(info, k, v)
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)

        add(
            "t0/result.json",
            TaskResult(task_id="t0", status="finished", answer="ok").model_dump_json().encode(),
        )
        add("t0/escape", type=tarfile.SYMTYPE, linkname="../../outside.txt", size=0)
    return path


def test_token_and_incarnation_are_enforced(channel) -> None:  # type: ignore[no-untyped-def]
    driver, url, out = channel
    r = httpx.post(
        url + "/claim", json={"worker": "w0", "incarnation": 0}, headers={"Authorization": "Bearer no"}
    )
    assert r.status_code == 401
    driver.admit("w0", 1)
    old = DriverClient(url, TOKEN, "w0", 0, patience_s=2)
    with pytest.raises(Retired):
        old.claim()
    new = DriverClient(url, TOKEN, "w0", 1, patience_s=2)
    new.register(pid=1, host="here", cdp_url=None)
    task = new.claim()
    assert task is not None and task["task_id"] == "t0"
    assert new.heartbeat(stage="step 1", step=1) is False
    assert TaskQueue(out).workers()[0]["stage"] == "step 1"
    driver.retire("w0")  # the supervisor gave up on it: its hand-in is refused
    write_result(out / "t0", TaskResult(task_id="t0", status="finished"))
    with pytest.raises(Retired):
        new.finish("t0", "finished")
    assert {r["task_id"]: r["state"] for r in TaskQueue(out).tasks()}["t0"] == "claimed"
    driver.request_stop()
    driver.admit("w1", 0)
    w1 = DriverClient(url, TOKEN, "w1", 0, patience_s=2)
    assert w1.heartbeat() is True and w1.claim() is None  # stopping: no new task goes out
    for c in (old, new, w1):
        c.close()


def test_upload_places_only_the_claimed_folder_safely(channel, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    driver, url, out = channel
    driver.admit("w0", 0)
    client = DriverClient(url, TOKEN, "w0", 0, patience_s=2)
    assert client.claim()["task_id"] == "t0"  # type: ignore[index]
    # a task folder the worker does not hold is ignored, and hostile members never land
    work = tmp_path / "work"
    (work / "t1").mkdir(parents=True)
    (work / "t1" / "result.json").write_text("{}")
    with tarfile.open(work / "both.tar.gz", "w:gz") as tar:
        tar.add(work / "t1", arcname="t1")
    with pytest.raises(httpx.HTTPStatusError):  # the data filter refuses the escaping link: 400
        client.finish("t0", "finished", _evil_archive(tmp_path / "evil.tar.gz"))
    assert not (tmp_path / "outside.txt").exists() and not (out / "t0" / "escape").exists()
    client.finish("t0", "finished", work / "both.tar.gz")
    assert not (out / "t1").exists()
    # t0 had no result in that archive: the driver records the gap instead of losing the task
    res = read_result(out / "t0")
    assert res is not None and res.status == "error" and "without a result.json" in (res.error or "")

    assert client.claim()["task_id"] == "t1"  # type: ignore[index]
    (work / "t1" / "trajectory.jsonl").write_text('{"step": 0}\n')
    (work / "t1" / "step_000.png").write_bytes(b"\x89PNG")
    write_result(work / "t1", TaskResult(task_id="t1", status="finished", answer="VN"))
    archive = pack_folders(work, ["t1"], work / "t1.tar.gz")
    assert archive is not None
    client.finish("t1", "finished", archive)
    assert sorted(p.name for p in (out / "t1").iterdir()) == [
        "result.json",
        "step_000.png",
        "trajectory.jsonl",
    ]
    states = {r["task_id"]: (r["state"], r["status"]) for r in TaskQueue(out).tasks()}
    assert states["t1"] == ("done", "finished") and states["t0"] == ("done", "error")
    client.close()


def test_a_claim_retried_after_a_timeout_is_granted_once(channel) -> None:  # type: ignore[no-untyped-def]
    """Another process holds the queue's write lock longer than the worker waits for its
    claim: the worker retries, and receives the task the first attempt was granted."""
    import sqlite3
    import threading
    import time

    driver, url, out = channel
    driver.admit("w0", 0)
    client = DriverClient(url, TOKEN, "w0", 0, patience_s=30, timeout_s=0.5)
    client.register(pid=1, host="here", cdp_url=None)
    other = sqlite3.connect(out / "queue.sqlite", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the write lock, held by someone else for 3 s
    threading.Timer(3.0, lambda: other.execute("COMMIT")).start()
    t0 = time.monotonic()
    task = client.claim()
    assert time.monotonic() - t0 > 2.5  # it did wait out the lock, across retries
    q = TaskQueue(out)
    assert task is not None and task["task_id"] == "t0"
    assert q.claimed_by("w0") == ["t0"]  # not t0 and t1: nothing granted to nobody
    write_result(out / "t0", TaskResult(task_id="t0", status="finished"))
    client.finish("t0", "finished")
    client.finish("t0", "finished")  # a hand-in retried after its answer was lost: accepted once
    assert client.claim()["task_id"] == "t1"
    assert {r["task_id"]: r["state"] for r in q.tasks()} == {"t0": "done", "t1": "claimed", "t2": "pending"}
    other.close()


def test_a_grant_that_never_arrived_goes_back_to_pending(channel) -> None:  # type: ignore[no-untyped-def]
    driver, url, out = channel
    driver.admit("w0", 0)
    lost = driver.claim("w0", 0, "first")  # granted, but the answer never reached the worker
    assert lost is not None and lost["task_id"] == "t0"
    client = DriverClient(url, TOKEN, "w0", 0, patience_s=2)
    assert client.claim()["task_id"] == "t0"  # its next claim gets that task, which never ran
    assert TaskQueue(out).claimed_by("w0") == ["t0"]
