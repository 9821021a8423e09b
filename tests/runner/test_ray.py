"""The Ray backend, on one local two-node Ray cluster its tests share (starting a cluster takes
15-20 s on these machines; each test used to start its own, the Ctrl-C test two):

- it gives the same results as the local backend, a worker killed mid-task (SIGKILL) and a
  hanging task included;
- workers on two nodes without a shared output folder: they write under their own work dir and
  upload each finished task folder to the driver (tests/runner/test_work_dir.py has the checks);
- Ctrl-C to a run's parent process stops it in order and a re-run resumes it
  (tests/runner/test_interrupt.py has the checks): here both parents join the shared cluster.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.runner.test_interrupt import ctrl_c_then_resume
from tests.runner.test_work_dir import _check, _run
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunOptions, RunOutcome, run_tasks
from webfovea.runner.supervisor import Policy

ray = pytest.importorskip("ray")
REPO = str(Path(__file__).resolve().parents[2])
# stall_s well above a loaded machine's heartbeat gaps: this test is about outcomes, not stall detection
POLICY = Policy(stall_s=30.0, launch_s=90.0, poll_s=0.2)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A head and one more node, one CPU each; this process is connected to it. Yields its address."""
    from ray.cluster_utils import Cluster

    # The nodes' worker processes (for this driver and for the parents the Ctrl-C test starts)
    # must import the stand-in agent from the repository.
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = REPO
    c = None
    try:
        for attempt in range(2):  # Ray gives its raylet a fixed 30 s; a loaded machine can miss it once
            try:
                c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
                c.add_node(num_cpus=1)
                ray.init(
                    address=c.address, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": REPO}}
                )
                break
            except Exception:
                ray.shutdown()
                if c is not None:
                    c.shutdown()
                    c = None
                if attempt:
                    raise
        assert c is not None
        yield c.address
    finally:
        ray.shutdown()
        if c is not None:
            c.shutdown()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


FAULTS = {"a": None, "b_suicide": "suicide", "c": None, "d_hang": "hang", "e": None}
COMMON: dict[str, Any] = dict(
    model="fake",
    config=make_config(),
    workers=2,
    # A Ray worker's first task includes its browser launch: under CI's load that took
    # more than 8 s once (stop 50), so the limit leaves room while the hang still trips it.
    task_timeout_s=20.0,
    show_progress=False,
    policy=POLICY,
    task_fn=run_task,
)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunOutcome]:
    """The same tasks on the local backend, before the cluster starts: a Ray cluster's idle
    processes cost CPU while they wait, and the local run does not need them."""
    out = tmp_path_factory.mktemp("local") / "local"
    with serve_pages({"/": PAGE}) as srv:
        return out, run_tasks(make_tasks(srv.url("/"), FAULTS), out, RunOptions(**COMMON))


# `local_run` before `cluster`: pytest sets up same-scope fixtures in the order a test names them.
def test_ray_matches_local(local_run: tuple[Path, RunOutcome], cluster: str, tmp_path: Path) -> None:
    local_dir, local = local_run
    with serve_pages({"/": PAGE}) as srv:
        tasks = make_tasks(srv.url("/"), FAULTS)
        remote = run_tasks(tasks, tmp_path / "ray", RunOptions(backend="ray", **COMMON))
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
        ) == sorted(p.name for p in (local_dir / t.task_id).iterdir() if not p.name.startswith("."))
    assert json.loads((tmp_path / "ray" / "run.json").read_text())["backend"] == "ray"


def test_ray_two_nodes_without_shared_output_folder(cluster: str, tmp_path: Path) -> None:
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 2
    out, work = tmp_path / "out", tmp_path / "work"
    with serve_pages({"/": PAGE}) as srv:
        outcome = _run(srv.url("/"), out, work, "ray")
    log = _check(outcome, out, work)
    # one CPU per node and one per worker: the two workers ran on the two nodes
    assert {e["node"] for e in log if e["event"] == "worker_exit"} == nodes
    assert json.loads((out / "run.json").read_text())["backend"] == "ray"


@pytest.mark.timeout(600)  # two parents joining the cluster on a loaded 2-core machine
def test_ctrl_c_then_resume_on_ray(cluster: str, tmp_path: Path) -> None:
    ctrl_c_then_resume(tmp_path, "ray", {"RAY_ADDRESS": cluster})
