"""The Ray backend on a local Ray cluster (num_cpus=2) gives the same results as the local
backend, including a worker killed mid-task (the actor is restarted by Ray)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.supervisor import Policy

ray = pytest.importorskip("ray")
REPO = str(Path(__file__).resolve().parents[2])
# stall_s well above a loaded machine's heartbeat gaps: this test is about outcomes, not stall detection
POLICY = Policy(stall_s=30.0, launch_s=90.0, poll_s=0.2)


def _start_ray() -> None:
    # Ray gives its raylet a fixed 30 s to come up; on a loaded 2-core machine it can miss that once.
    for attempt in range(2):
        try:
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": REPO}},
            )
            return
        except Exception:
            ray.shutdown()
            if attempt:
                raise


def test_ray_matches_local(tmp_path: Path) -> None:
    with serve_pages({"/": PAGE}) as srv:
        tasks = make_tasks(
            srv.url("/"), {"a": None, "b_suicide": "suicide", "c": None, "d_hang": "hang", "e": None}
        )
        common = dict(
            model="fake",
            config=make_config(),
            workers=2,
            task_timeout_s=8.0,
            show_progress=False,
            policy=POLICY,
            task_fn=run_task,
        )
        local = run_tasks(tasks, tmp_path / "local", RunOptions(**common))
        _start_ray()
        try:
            remote = run_tasks(tasks, tmp_path / "ray", RunOptions(backend="ray", **common))
        finally:
            ray.shutdown()
    summary = {k: (r.status, r.answer) for k, r in local.results.items()}
    assert summary == {
        "a": ("finished", "VN"),
        "b_suicide": ("worker_lost", None),
        "c": ("finished", "VN"),
        "d_hang": ("timeout", None),
        "e": ("finished", "VN"),
    }
    assert {k: (r.status, r.answer) for k, r in remote.results.items()} == summary, json.dumps(
        {k: (r.status, r.error) for k, r in remote.results.items()}, indent=1
    )
    assert remote.complete
    for t in tasks:
        assert starts(tmp_path / "ray" / t.task_id) == 1
        assert sorted(
            p.name for p in (tmp_path / "ray" / t.task_id).iterdir() if not p.name.startswith(".")
        ) == sorted(p.name for p in (tmp_path / "local" / t.task_id).iterdir() if not p.name.startswith("."))
    assert json.loads((tmp_path / "ray" / "run.json").read_text())["backend"] == "ray"
