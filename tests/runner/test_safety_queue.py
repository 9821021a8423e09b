"""Runner safety (queue): a started task is never run again whatever the queue's state, and
a queue file replaced or damaged mid-run stops the run cleanly with every finished result kept.
Real worker processes, real browsers, a real SQLite queue; the stand-in agent counts its starts
in each task folder (`fake_starts`), which is the evidence asserted."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.record.files import read_result
from webfovea.runner.api import RunError, RunOptions, run_tasks
from webfovea.runner.queue import STARTED_LOG, STARTS_FILE
from webfovea.runner.supervisor import Policy

FAST = Policy(stall_s=6.0, launch_s=60.0, task_grace_s=20.0, poll_s=0.2, stop_grace_s=10.0)


def _opts(**kw: object) -> RunOptions:
    return RunOptions(
        model="fake",
        config=make_config(),
        task_timeout_s=30.0,
        show_progress=False,
        policy=FAST,
        task_fn=run_task,
        **kw,
    )  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


def test_started_tasks_are_not_run_again_after_the_queue_is_moved_away(site, tmp_path: Path) -> None:
    tasks = make_tasks(site.url("/"), {"a": None, "b": None, "c": None, "d": None})
    first = run_tasks(tasks[:1], tmp_path / "first", _opts())  # a real finished result for "a"
    out = tmp_path / "run"
    out.mkdir()
    shutil.copytree(tmp_path / "first" / "a", out / "a")
    # What a run killed mid-task leaves: "b" started by a worker (its own evidence in the folder),
    # "c" handed out by the driver (its ledger); neither has a result. The queue file is damaged.
    (out / "b").mkdir()
    (out / "b" / STARTS_FILE).write_text('{"worker": "w0"}\n')
    (out / STARTED_LOG).write_text(json.dumps({"event": "claimed", "task_id": "c", "at": 0}) + "\n")
    (out / "queue.sqlite").write_bytes(b"garbage" * 500)
    with pytest.raises(RunError, match="corrupt"):
        run_tasks(tasks, out, _opts())
    (out / "queue.sqlite").rename(tmp_path / "queue.damaged")  # the advice the error gives
    outcome = run_tasks(tasks, out, _opts(workers=2))
    assert first.complete
    assert outcome.counts == {"pending": 1, "done": 1, "lost": 2, "requeued": 0}
    st = {tid: r.status for tid, r in outcome.results.items()}
    assert st == {"a": "finished", "b": "worker_lost", "c": "worker_lost", "d": "finished"}
    assert [starts(out / t) for t in "abcd"] == [1, 0, 0, 1]  # "a" only by the first run


@pytest.mark.parametrize("how", ["overwritten", "replaced"])
def test_a_queue_damaged_mid_run_stops_cleanly_keeping_finished_results(
    site, tmp_path: Path, how: str
) -> None:
    faults = {"a": None, "b": None, "c": "slow", "d": "slow", "e": "slow", "f": "slow"}
    tasks = make_tasks(site.url("/"), faults, steps=20)
    out = tmp_path / "run"
    done = threading.Event()

    def sabotage() -> None:
        deadline = time.time() + 120
        while time.time() < deadline and not done.is_set():
            # mid-run: both quick tasks finished and a slow one is in a worker's hands
            if all((r := read_result(out / t)) is not None and r.status == "finished" for t in "ab") and any(
                starts(out / t) for t in "cdef"
            ):
                q = out / "queue.sqlite"
                if how == "overwritten":
                    with q.open("r+b") as f:
                        f.write(b"not a queue any more" * 10)
                else:
                    other = tmp_path / "other.sqlite"
                    other.write_bytes(q.read_bytes())
                    other.replace(q)
                return
            time.sleep(0.2)

    t = threading.Thread(target=sabotage)
    t.start()
    t0 = time.time()
    try:
        with pytest.raises(RunError) as info:
            run_tasks(tasks, out, _opts(workers=2))
    finally:
        done.set()
        t.join()
    msg = str(info.value)
    assert how in msg and "the run stopped" in msg and "Move queue.sqlite away" in msg, msg
    assert time.time() - t0 < 60  # the slow tasks (20 s each) were not waited for
    for tid in "ab":  # finished results are untouched
        r = read_result(out / tid)
        assert r is not None and r.status == "finished" and r.answer == "VN"
    in_flight = [tid for tid in "cdef" if starts(out / tid)]
    assert in_flight, "the sabotage came before any slow task started"
    for tid in in_flight:
        r = read_result(out / tid)
        assert r is not None and r.status == "worker_lost" and how in (r.error or ""), (tid, r)
    # Resumed after moving the damaged queue away: what started is not started again.
    (out / "queue.sqlite").rename(tmp_path / "queue.damaged")
    again = run_tasks(tasks[:2] + [t for t in tasks[2:] if t.task_id in in_flight], out, _opts(workers=2))
    assert again.counts["pending"] == 0 and again.complete
    assert all(starts(out / tid) == 1 for tid in ["a", "b", *in_flight])
    log = [json.loads(line)["event"] for line in (out / "runner.log.jsonl").read_text().splitlines()]
    assert "queue_broken" in log
