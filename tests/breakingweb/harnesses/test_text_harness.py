"""`webfovea bench breakingweb --harness text` end to end (subprocess, real Chromium, the oracle
speaking the bid grammar): one base task clean and under a belief family (save drift), through the
BrowserGym registration's text contract, into the usual run folder, scored by the backend
evaluator — the clean run passes, the save-drift run (a belief family: the "Saved" page lies) fails
although the agent declared success."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webfovea.cli.main import app
from webfovea.record import write_result
from webfovea.record.schema import TaskResult

pytest.importorskip("browsergym.core", reason="BrowserGym is an optional extra")


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "webfovea.cli", "bench", "breakingweb", "--model", "oracle", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def steps(task_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (task_dir / "harness_steps.jsonl").read_text().splitlines()]


def test_text_harness_runs_a_pair_scored_by_the_backend(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # One pair under a belief family (the official pairing covers the official environments).
    pair = ("--pairing", "sweep", "--families", "save_drift")
    res = bench("--harness", "text", *pair, "--only", "req-create-01", "--out", str(out))
    assert res.returncode == 0, res.stderr[-3000:]
    clean = json.loads((out / "req-create-01" / "result.json").read_text())
    drift = json.loads((out / "req-create-01--save_drift" / "result.json").read_text())
    assert clean["state"]["passed"] and clean["status"] == "finished"
    assert drift["family"] == "server/save_drift" and drift["status"] == "finished"
    assert not drift["state"]["passed"]  # it said done; the backend disagrees
    # Every action in the bid grammar, every bid a quoted string the tree showed; the last a terminal verb.
    acts = steps(out / "req-create-01")
    assert all(
        re.fullmatch(
            r"(click|fill|select_option|press|scroll|noop)\(.*\)|send_msg_to_user\(.*\)", a["action"]
        )
        for a in acts
    )
    assert all(a["refused"] is None for a in acts)
    assert acts[-1]["action"].startswith("send_msg_to_user(")
    assert all(0 < a["sent_tokens"] <= 26_000 for a in acts)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["meta"]["harness"] == "text" and summary["meta"]["time_cap_s"] == 600
    paired = summary["extensions"]["breakingweb"]["paired"]
    assert paired["pairs"] == 1 and paired["clean_pass"] == 1.0 and paired["intervention_pass"] == 0.0


def refused(*args: str) -> str:
    """The same command, in this process (Typer's runner: the refusals, not the process start,
    are the subject; the run above is the real command line): its output, once it failed."""
    res = CliRunner().invoke(app, ["bench", "breakingweb", "--model", "oracle", *args])
    assert res.exit_code != 0, res.output[-2000:]
    return " ".join(res.output.split())  # the console wraps long lines


def test_a_harness_it_cannot_drive_is_a_clear_error(tmp_path: Path) -> None:
    assert "unknown harness 'telnet'" in refused("--harness", "telnet", "--out", str(tmp_path / "r"))
    said = refused("--harness", "text", "--model-family", "gpt", "--out", str(tmp_path / "r"))
    assert "--model-family applies to --harness gui only" in said
    # A folder holding webfovea's results is not resumed as if they were the text harness's.
    ours = tmp_path / "ours"
    write_result(
        ours / "req-create-01", TaskResult(task_id="req-create-01", status="finished", profile="webfovea")
    )
    said = refused("--harness", "text", "--only", "req-create-01", "--out", str(ours))
    assert "holds results of another harness (webfovea)" in said
