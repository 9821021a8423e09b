"""Runner safety (orphans): SIGKILL the driver mid-run and no worker (nor its browser)
stays alive; a resume records the started tasks `worker_lost`, and nothing overwrites that
later. The driver is a real process (tests/runner/helpers.py) with real workers and browsers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.runner.helpers import SLOW_STEPS
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.record.files import read_result
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.procs import descendants
from webfovea.runner.supervisor import Policy

REPO = Path(__file__).resolve().parents[2]
FAULTS = {"a": "hang", "b": "hang", "c": None}


def _descendants(root: int) -> set[int]:
    return set(descendants(root))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie is dead, only not yet reaped by its new parent


def test_workers_die_with_a_killed_driver_and_a_resume_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with serve_pages({"/": PAGE}) as srv:
        url = srv.url("/")
        parent = subprocess.Popen(
            [sys.executable, "-m", "tests.runner.helpers", str(out), url, json.dumps(FAULTS), "local"],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            deadline = time.time() + 120
            while time.time() < deadline and not (starts(out / "a") and starts(out / "b")):
                time.sleep(0.3)
            assert starts(out / "a") and starts(out / "b"), "the hanging tasks never started"
            time.sleep(1.0)  # both workers are inside their hanging task, browsers up
            family = _descendants(parent.pid)
            assert len(family) >= 4, family  # two workers, each with at least its browser driver
            parent.send_signal(signal.SIGKILL)
            parent.wait(10)
            deadline = time.time() + 10
            while time.time() < deadline and any(_alive(p) for p in family):
                time.sleep(0.2)
            left = sorted(p for p in family if _alive(p))
            assert not left, [Path(f"/proc/{p}/cmdline").read_bytes()[:80] for p in left]
        finally:
            if parent.poll() is None:
                parent.kill()

        # Resume in-process: the tasks the dead run started are worker_lost, "c" (if not yet
        # started) runs; nobody writes over those results afterwards.
        tasks = make_tasks(url, FAULTS, steps=SLOW_STEPS)
        outcome = run_tasks(
            tasks,
            out,
            RunOptions(
                model="fake",
                config=make_config(),
                workers=1,
                task_timeout_s=30.0,
                show_progress=False,
                policy=Policy(stall_s=20.0, poll_s=0.2),
                task_fn=run_task,
            ),
        )
    assert outcome.results["a"].status == outcome.results["b"].status == "worker_lost"
    time.sleep(3.0)  # an orphan would still be hanging and would write `timeout` at 30 s; none is left
    for tid in "ab":
        r = read_result(out / tid)
        assert r is not None and r.status == "worker_lost", (tid, r)
        assert starts(out / tid) == 1
