"""`webfovea bench breakingweb --paired` end to end (subprocess, real Chromium, the oracle): the
result files hold the backend-state score and the summary the per-family drop."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from webfovea.cli.main import app


def cli(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args], capture_output=True, text=True, timeout=timeout
    )


def test_unknown_family_is_a_clear_error(tmp_path: Path) -> None:
    # In this process (Typer's runner): the refusal is the subject, the paired run below is the
    # real command line.
    res = CliRunner().invoke(
        app, ["bench", "breakingweb", "--families", "teleport", "--out", str(tmp_path / "r")]
    )
    assert res.exit_code != 0 and "unknown intervention family 'teleport'" in res.output
    res = CliRunner().invoke(app, ["bench", "builtin", "--paired", "--out", str(tmp_path / "r")])
    assert res.exit_code != 0 and "breakingweb suite only" in " ".join(res.output.split())


def test_paired_run_scores_state_and_reports_per_family(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # `verify` off: the oracle trusts the "Saved" it sees, as a model without the re-read would.
    res = cli(
        "bench",
        "breakingweb",
        "--paired",
        "--families",
        "fabricated_success,swallowed_click",
        "--limit",
        "1",
        "--disable",
        "verify",
        "--out",
        str(out),
    )
    assert res.returncode == 0, res.stderr[-3000:]
    clean = json.loads((out / "req-create-01" / "result.json").read_text())
    forged = json.loads((out / "req-create-01--fabricated_success" / "result.json").read_text())
    assert (
        clean["family"] is None and clean["state"]["passed"] and clean["state"]["obligations_met"] == [True]
    )
    assert forged["family"] == "network/fabricated_success"
    # Same task, seed and (no) seed-layer change: the same initial state; the forged save stored nothing.
    assert forged["state"]["initial_sha256"] == clean["state"]["initial_sha256"]
    assert forged["status"] == "finished" and not forged["state"]["passed"]
    assert forged["state"]["audit_sha256"] != clean["state"]["audit_sha256"]
    whole = json.loads((out / "summary.json").read_text())
    summary = whole["extensions"]["breakingweb"]  # the plug-in's own block
    # ... also at the top level for one release (CHANGELOG), for the readers of the old fields
    assert all(whole[k] == v for k, v in summary.items())
    fam = summary["per_family"]
    assert set(fam) == {"network/fabricated_success", "client/swallowed_click"}
    ignored = {"delta_ci": None, "score_delta_ci": None}
    assert fam["network/fabricated_success"] | ignored == {
        "layer": "network",
        "primitive": "verification",
        "pairs": 1,
        "clean_pass": 1.0,
        "intervention_pass": 0.0,
        "delta": 1.0,
        "clean_score": 1.0,
        "intervention_score": 0.0,
        "score_delta": 1.0,
        "overturn_rate": 1.0,
        "done_fpr": 1.0,
        **ignored,
    }
    assert fam["client/swallowed_click"]["delta"] == 0.0  # the feedback told the oracle; it clicked again
    assert summary["done_signal_fpr"] == 0.5 and summary["overturned_share"] == 0.5
    assert summary["primitive_layer"]["verification"]["network"]["delta"] == 1.0
    assert summary["per_primitive"]["exploration"]["pairs"] == 1 and summary["paired"]["pairs"] == 2
    assert summary["failures_per_primitive"]["verification"]  # the forged save's failure, labelled
    out_text = res.stdout + res.stderr
    assert "paired (sweep): 2 pairs" in out_text  # the table printed at the end
    # Table 2's rows and Figure 4(b)'s families, with the numbers summary.json holds
    for prim, g in summary["per_primitive"].items():
        row = f"{prim:<16} {g['pairs']:>5} {g['clean_pass']:>6.0%} {g['intervention_pass']:>7.0%} {g['delta']:>+6.2f}"
        assert row in out_text, (row, out_text[-3000:])
    assert re.search(r"network/fabricated_success\s+1\s+100%\s+1\n", out_text), out_text[-3000:]
    assert re.search(r"client/swallowed_click\s+1\s+0%\s+0\n", out_text), out_text[-3000:]
    report = (out / "report.html").read_text()
    assert "By intervention family" in report and "Primitive × layer" in report and "<svg" in report
    # The live progress line judges the stateful tasks by their backend state as summary.json does.
    # (It counted answers only: "0 passed" for state tasks. The line may stop before the last task.)
    passes = [
        int(n)
        for n in re.findall(r"\d/3\s+done,\s+\d+\s+answered,\s+(\d+)\s+passed", res.stdout + res.stderr)
    ]
    assert passes and 1 <= max(passes) <= whole["passed"] == 2, (res.stderr[-2000:], passes)
