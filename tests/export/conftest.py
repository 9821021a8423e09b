"""One real oracle run shared by the export tests: a clean task and its wrong-row fault (it
finishes with a wrong answer), so the site's truth passes one and fails the other."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ),
    )


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run: one clean task and its wrong-row fault (a finished run with a wrong answer)."""
    from webfovea.app import BenchOptions, run_bench

    out = tmp_path_factory.mktemp("run") / "r"
    # In-process: the export is the subject here (tests/cli runs `bench` as a command).
    run = BenchOptions("builtin", model="oracle", only="stats-select-01-vn", faults="wrong_row", out_dir=out)
    assert run_bench(run).summary.tasks == 2
    return out
