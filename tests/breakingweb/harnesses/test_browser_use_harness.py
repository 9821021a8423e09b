"""`webfovea bench breakingweb --harness browser-use` end to end (subprocess, real Chromium,
browser-use's own `Agent` in its own venv, its model the loopback chat server answered by the
oracle): one base task clean and under a belief family (save drift), scored by the backend
evaluator — the clean run passes, the save-drift run fails although the agent said it was done."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea_breakingweb.harnesses.browser_use_runner import BrowserUseMissing, browser_use_python


def bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "webfovea.cli", "bench", "breakingweb", "--model", "oracle", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)


@pytest.mark.timeout(900)  # browser-use starts its browser and imports for seconds; two tasks
def test_browser_use_runs_a_pair_scored_by_the_backend(tmp_path: Path) -> None:
    try:
        browser_use_python()
    except BrowserUseMissing as e:
        pytest.skip(
            f"browser-use is not installed in its own venv (benchmarks/bench_peers.py installs it): {e}"
        )
    out = tmp_path / "run"
    pair = ("--pairing", "sweep", "--families", "save_drift", "--only", "req-create-01")
    res = bench("--harness", "browser-use", *pair, "--out", str(out))
    assert res.returncode == 0, res.stderr[-3000:]
    clean = json.loads((out / "req-create-01" / "result.json").read_text())
    drift = json.loads((out / "req-create-01--save_drift" / "result.json").read_text())
    assert clean["profile"] == "harness-browser-use" and clean["status"] == "finished", clean.get("error")
    assert clean["state"]["passed"]
    assert drift["family"] == "server/save_drift" and drift["status"] == "finished"
    assert not drift["state"]["passed"]  # browser-use's `done` said success; the backend disagrees
    # What was answered is browser-use's own grammar: its action names, element indices it was shown.
    lines = [json.loads(x) for x in (out / "req-create-01" / "harness_steps.jsonl").read_text().splitlines()]
    names = [next(iter(line["action"])) for line in lines]
    assert set(names) <= {"click", "input", "send_keys", "select_dropdown", "scroll", "wait", "done"}
    assert names[-1] == "done" and "input" in names
    assert all(line["shown"] > 0 for line in lines)
    ran = [line["browser_use_ran"] for line in lines if line["browser_use_ran"]]
    assert ran and next(iter(ran[-1])) == "done"  # browser-use ran what the oracle answered
    summary = json.loads((out / "summary.json").read_text())
    assert summary["meta"]["harness"] == "browser-use"
    paired = summary["extensions"]["breakingweb"]["paired"]
    assert paired["pairs"] == 1 and paired["clean_pass"] == 1.0 and paired["intervention_pass"] == 0.0


def test_missing_browser_use_is_a_clear_error(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "WEBFOVEA_BROWSER_USE_PYTHON": str(tmp_path / "no-venv" / "python")}
    res = bench("--harness", "browser-use", "--only", "req-create-01", "--out", str(tmp_path / "r"), env=env)
    said = " ".join((res.stderr + res.stdout).split())
    assert res.returncode != 0 and "browser-use is not importable by" in said
