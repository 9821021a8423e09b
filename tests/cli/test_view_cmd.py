"""`webfovea view` as a user starts it: the address it prints serves the run; a missing folder
is a clear error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.view.fixture_run import build_run


def test_view_prints_its_address_and_serves_the_run(tmp_path: Path) -> None:
    run = build_run(tmp_path / "run")
    proc = subprocess.Popen(
        [sys.executable, "-m", "webfovea.cli", "view", str(run), "--no-open"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        with urllib.request.urlopen(url + "run/0/", timeout=30) as r:
            assert 'data-task-id="gdp-th"' in r.read().decode()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_view_refuses_a_folder_that_is_not_there(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "view", str(tmp_path / "nope"), "--no-open"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 2
    assert "nope is not a folder" in " ".join(done.stderr.split())
