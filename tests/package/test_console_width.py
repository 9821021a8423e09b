"""Output to a pipe, a file or CI's log is not hard-wrapped at 80 columns (a progress line or a
table row split mid-number); a terminal keeps Rich's width and `COLUMNS` still wins."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from webfovea.console import make_console

ROW = "stats-select-01-vn"
URL = "http://proving-ground/stats"


def _listing(columns: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns:
        env["COLUMNS"] = columns
    out = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "bench", "builtin", "--list"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout
    return [line for line in out.splitlines() if ROW in line]


def test_a_piped_table_keeps_each_row_whole() -> None:
    assert any(URL in line for line in _listing(None))  # at 80 columns the URL was cut to "http:…"
    assert not any(URL in line for line in _listing("60"))  # the width the user asked for


def test_a_long_line_is_not_wrapped_into_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # another test's CLI runner may leave one set
    buf = io.StringIO()
    line = "progress " + " ".join(f"{i}/1000" for i in range(40))
    make_console(file=buf).print(line)
    assert buf.getvalue() == line + "\n"
