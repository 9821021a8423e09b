"""`make_run`: runs_fixture.py's run folders under the test's tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.breakingweb.report.runs_fixture import MakeRun, run_maker


@pytest.fixture
def make_run(tmp_path: Path) -> MakeRun:
    return run_maker(tmp_path)
