"""Workers that do not write into the output folder: they write under their own work dir and
upload each finished task folder to the driver, which alone opens the queue. Once with local
processes given a separate work dir, once on a two-node Ray cluster on this machine
(tests/runner/test_ray.py, on the cluster its tests share). In both
a worker kills itself mid-task (SIGKILL) and another blocks its event loop (the driver kills
it): the same supervision loop records those tasks `worker_lost`, and the folders the
workers left on their node still reach the output folder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunOptions, RunOutcome, run_tasks
from webfovea.runner.supervisor import Policy

FAULTS = {"a": None, "b_suicide": "suicide", "c": None, "d": None, "e_block": "block"}
POLICY = Policy(stall_s=10.0, launch_s=90.0, poll_s=0.2)


def _run(url: str, out: Path, work: Path, backend: str) -> RunOutcome:
    return run_tasks(
        make_tasks(url, FAULTS),
        out,
        RunOptions(
            model="fake",
            config=make_config(),
            workers=2,
            backend=backend,
            task_timeout_s=30.0,
            show_progress=False,
            policy=POLICY,
            task_fn=run_task,
            work_dir=work,
        ),
    )


def _check(outcome: RunOutcome, out: Path, work: Path) -> list[dict]:
    assert work.resolve() != out.resolve() and out.resolve() not in work.resolve().parents
    st = {k: (r.status, r.answer) for k, r in outcome.results.items()}
    assert st == {
        "a": ("finished", "VN"),
        "b_suicide": ("worker_lost", None),
        "c": ("finished", "VN"),
        "d": ("finished", "VN"),
        "e_block": ("worker_lost", None),
    }, json.dumps({k: r.error for k, r in outcome.results.items()})
    assert outcome.complete and not outcome.interrupted
    assert "exited with code -9" in (outcome.results["b_suicide"].error or "")
    assert "stuck" in (outcome.results["e_block"].error or "")
    for tid in FAULTS:
        names = {p.name for p in (out / tid).iterdir()}
        # the lost task too: its node sent back what it had written before dying
        assert {
            "result.json",
            "trajectory.jsonl",
            "step_000.png",
            "capture.json",
            ".runner_starts",
        } <= names, tid
        assert starts(out / tid) == 1, tid
    # the captures of the lost tasks were exported by the driver from the databases their workers left
    for tid in ("b_suicide", "e_block"):
        cap = json.loads((out / tid / "capture.json").read_text())
        assert "lost" in cap["note"] and any("/api?" in r["url"] for r in cap["requests"]), cap
    # only the driver opened the queue; every handed-over folder left the work dir
    assert (out / "queue.sqlite").exists()
    assert sorted(p.name for p in work.iterdir()) == ["w0", "w1"]  # where the workers wrote
    assert not list(work.rglob("queue.sqlite*")) and not list(work.rglob("result.json"))
    log = [json.loads(line) for line in (out / "runner.log.jsonl").read_text().splitlines()]
    received = {e["task_id"] for e in log if e["event"] == "task_received" and e["bytes"] > 0}
    assert received == {"a", "c", "d"}
    assert sorted(t for e in log if e["event"] == "leftovers_received" for t in e["placed"]) == [
        "b_suicide",
        "e_block",
    ]
    assert sorted(t for e in log if e["event"] == "worker_lost" for t in e["tasks"]) == [
        "b_suicide",
        "e_block",
    ]
    return log


def test_local_workers_with_their_own_work_dir(tmp_path: Path) -> None:
    out, work = tmp_path / "out", tmp_path / "work"
    with serve_pages({"/": PAGE}) as srv:
        outcome = _run(srv.url("/"), out, work, "local")
    _check(outcome, out, work)
