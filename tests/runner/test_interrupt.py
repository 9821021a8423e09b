"""Ctrl-C (SIGINT to the parent only) stops the run in order; a re-run resumes it: tasks with
a final result are not started again, interrupted ones are, and every task ends done."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.runner.fake_agent import PAGE, starts
from tests.support.servers import serve_pages

REPO = Path(__file__).resolve().parents[2]
FAULTS = {"a": None, "b": "slow", "c": "slow", "d": None, "e": None}


def _parent(out: Path, url: str, backend: str, env: dict[str, str]) -> subprocess.Popen[str]:
    # PYTHONPATH: a Ray cluster started by the parent must import the stand-in agent too.
    return subprocess.Popen(
        [sys.executable, "-m", "tests.runner.helpers", str(out), url, json.dumps(FAULTS), backend],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
    )


def _slow_task_midway(out: Path) -> bool:
    # One short read-only look: opening a TaskQueue per poll would create the schema (a write)
    # and leak a connection each time, which on a loaded machine starved this loop.
    db_path = out / "queue.sqlite"
    if not db_path.exists():
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=2)) as db:
            rows = db.execute("SELECT task_id, step FROM workers").fetchall()
    except sqlite3.Error:
        return False  # the parent is still creating the file
    return any((step or 0) >= 2 and tid in ("b", "c") for tid, step in rows)


def test_ctrl_c_then_resume(tmp_path: Path) -> None:
    ctrl_c_then_resume(tmp_path, "local")


def ctrl_c_then_resume(tmp_path: Path, backend: str, env: dict[str, str] | None = None) -> None:
    """The check, for a backend (tests/runner/test_ray.py runs it on its shared Ray cluster,
    `env` naming the cluster's address)."""
    env = env or {}
    out = tmp_path / "run"
    with serve_pages({"/": PAGE}) as srv:
        p = _parent(out, srv.url("/"), backend, env)
        try:
            deadline = time.time() + (300 if backend == "ray" else 120)
            # wait until a slow task is mid-way (its worker reports a step > 1)
            while time.time() < deadline:
                if _slow_task_midway(out):
                    break
                time.sleep(0.1)
            else:
                p.kill()
                raise AssertionError(
                    f"no slow task got going; the run printed: {p.communicate()[0][-2000:]!r}"
                )
            p.send_signal(signal.SIGINT)
            text, _ = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
        assert p.returncode == 0, text
        assert json.loads(text.strip().splitlines()[-1]) == {"complete": False, "interrupted": True}, text
        first = {
            t: json.loads((out / t / "result.json").read_text())["status"]
            for t in FAULTS
            if (out / t / "result.json").exists()
        }
        interrupted = sorted(t for t, s in first.items() if s == "interrupted")
        assert interrupted and set(interrupted) <= {"b", "c"}, first
        assert all(s in ("finished", "interrupted") for s in first.values()), first
        finished_before = {t for t, s in first.items() if s == "finished"}

        p = _parent(out, srv.url("/"), backend, env)
        text, _ = p.communicate(timeout=180)
        assert p.returncode == 0, text
        assert json.loads(text.strip().splitlines()[-1]) == {"complete": True, "interrupted": False}, text
    final = {t: json.loads((out / t / "result.json").read_text())["status"] for t in FAULTS}
    assert final == dict.fromkeys(FAULTS, "finished")
    for t in FAULTS:
        # finished tasks were never started again; interrupted ones ran once more, from a clean folder
        assert starts(out / t) == 1, t
        assert (out / ".interrupted" / f"{t}.1").exists() == (t in interrupted)
    assert finished_before.isdisjoint(interrupted)
