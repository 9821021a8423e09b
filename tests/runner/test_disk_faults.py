"""An output folder that refuses writes — read-only, or a disk that fills mid-run — stops the
run with one clear error (RunError), never a traceback, keeping what was written."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.record.run_files import read_run_info
from webfovea.runner.api import RunError, RunOptions, run_tasks
from webfovea.runner.supervisor import Policy

FAST = Policy(stall_s=6.0, launch_s=60.0, task_grace_s=20.0, poll_s=0.2, stop_grace_s=10.0)


@contextlib.contextmanager
def tmpfs(path: Path, options: str) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _options(workers: int = 1) -> RunOptions:
    return RunOptions(
        model="fake",
        config=make_config(),
        workers=workers,
        task_timeout_s=8.0,
        show_progress=False,
        policy=FAST,
        task_fn=run_task,
    )


def test_a_read_only_out_is_one_clear_error(tmp_path: Path) -> None:
    tasks = make_tasks("http://127.0.0.1:9/", {"a": None})
    with tmpfs(tmp_path / "ro", "ro,size=64k") as out:
        with pytest.raises(RunError) as e:
            run_tasks(tasks, out / "run", _options())
    assert "read-only" in str(e.value) and "\n" not in str(e.value)


def test_a_disk_filling_mid_run_stops_with_one_clear_error(tmp_path: Path) -> None:
    with serve_pages({"/": PAGE}) as site, tmpfs(tmp_path / "small", "size=1200k") as out:
        tasks = make_tasks(site.url("/"), {f"t{i:02d}": None for i in range(60)})
        with pytest.raises(RunError) as e:
            run_tasks(tasks, out / "run", _options())
        message = str(e.value)
        info = read_run_info(out / "run")
    assert "\n" not in message and ("full" in message or "queue" in message), message
    assert info is not None  # run.json is still readable, whatever could be written last
