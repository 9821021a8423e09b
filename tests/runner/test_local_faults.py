"""The local backend under injected faults, with a stand-in agent that really drives the
worker's browser (tests/runner/fake_agent.py). Every outcome is asserted exactly: one
result.json per task, no task started twice, failures say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunError, RunOptions, run_tasks
from webfovea.runner.queue import TaskQueue
from webfovea.runner.supervisor import Policy

FAST = Policy(stall_s=6.0, launch_s=60.0, task_grace_s=20.0, poll_s=0.2, stop_grace_s=10.0)


@pytest.fixture(scope="module")
def site():
    with serve_pages({"/": PAGE}) as srv:
        yield srv


def run(tasks, out: Path, **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("workers", 2)
    return run_tasks(
        tasks,
        out,
        RunOptions(
            model="fake",
            config=make_config(),
            task_timeout_s=kw.pop("timeout", 8.0),
            show_progress=False,
            policy=FAST,
            task_fn=run_task,
            **kw,
        ),
    )


def test_faults_are_contained_and_recorded(site, tmp_path: Path) -> None:
    faults = {
        "a1": None,
        "b_suicide": "suicide",
        "c_kill_browser": "kill_browser",
        "d2": None,
        "e_hang": "hang",
        "f_block": "block",
        "g3": None,
        "h4": None,
    }
    tasks = make_tasks(site.url("/"), faults)
    outcome = run(tasks, tmp_path)
    st = {tid: r.status for tid, r in outcome.results.items()}
    assert st == {
        "a1": "finished",
        "b_suicide": "worker_lost",
        "c_kill_browser": "browser_error",
        "d2": "finished",
        "e_hang": "timeout",
        "f_block": "worker_lost",
        "g3": "finished",
        "h4": "finished",
    }, json.dumps({k: (r.status, r.error) for k, r in outcome.results.items()}, indent=1)
    assert outcome.complete and not outcome.interrupted
    for t in tasks:
        assert starts(tmp_path / t.task_id) == 1, t.task_id  # none ran twice
        assert (tmp_path / t.task_id / "capture.json").exists(), t.task_id  # dead workers' too
    r = outcome.results
    assert all(r[t].answer == "VN" for t in ("a1", "d2", "g3", "h4"))
    assert "exited with code -9" in (r["b_suicide"].error or "")
    assert "stuck" in (r["f_block"].error or "") and "heartbeat" in (r["f_block"].error or "")
    assert "wall-clock limit of 8 s" in (r["e_hang"].error or "")
    assert "browser or CDP connection lost" in (r["c_kill_browser"].error or "")
    # both losses were seen by the parent; a slot is restarted when work remains (here at
    # least the first loss: the blocked task waits 6 s for detection, the other tasks less)
    log = [json.loads(line) for line in (tmp_path / "runner.log.jsonl").read_text().splitlines()]
    lost = sorted(t for e in log if e["event"] == "worker_lost" for t in e["tasks"])
    assert lost == ["b_suicide", "f_block"]
    restarts = [e for e in log if e["event"] == "worker_start" and e["restarts"] > 0]
    assert 1 <= len(restarts) <= 2
    # the browser was rebuilt after being killed: the worker's next task still passed on it
    run_json = json.loads((tmp_path / "run.json").read_text())
    assert run_json["workers"] == 2 and run_json["backend"] == "local" and run_json["ended_at"]
    assert len(json.loads((tmp_path / "tasks.json").read_text())) == 8

    # resuming a finished run starts nothing; a different task file is refused
    again = run(tasks, tmp_path)
    assert again.counts == {"pending": 0, "done": 8, "lost": 0, "requeued": 0}
    assert all(starts(tmp_path / t.task_id) == 1 for t in tasks)
    with pytest.raises(RunError, match="different task file"):
        run(make_tasks(site.url("/"), {"x1": None}), tmp_path)


def test_bad_input_is_refused_before_start(tmp_path: Path) -> None:
    tasks = make_tasks("http://127.0.0.1:9/", {"a": None})
    with pytest.raises(RunError, match="2 workers but 1 --cdp-url"):
        run(tasks, tmp_path / "o1", cdp_urls=["http://127.0.0.1:9"])
    with pytest.raises(RunError, match="does not answer"):
        run(tasks, tmp_path / "o2", workers=1, cdp_urls=["http://127.0.0.1:9"])
    (tmp_path / "o3").mkdir()
    (tmp_path / "o3" / "queue.sqlite").write_bytes(b"garbage" * 500)
    with pytest.raises(RunError, match="corrupt"):
        run(tasks, tmp_path / "o3")
    assert not (tmp_path / "o3" / "a").exists()
    assert not (tmp_path / "o2" / "queue.sqlite").exists()
    with pytest.raises(RunError, match="work_dir must be outside"):
        run(tasks, tmp_path / "o4", work_dir=tmp_path / "o4" / "work")
    assert not (tmp_path / "o4").exists()
    TaskQueue  # noqa: B018 - imported for the type in other tests
