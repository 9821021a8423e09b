"""`webfovea bench breakingweb --harness gui --model-family gemini` end to end (subprocess, real
Chromium, the oracle pointing at what the screenshot shows, on the 0–1000 grid): one base task
clean and under a belief family (save drift), scored by the backend evaluator."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("browsergym.core", reason="BrowserGym is an optional extra")

VERBS = (
    r"(mouse_click|mouse_move|keyboard_press|keyboard_type|scroll_at|noop|send_msg_to_user|report_infeasible)"
)


def test_gui_harness_runs_a_pair_scored_by_the_backend(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "webfovea.cli", "bench", "breakingweb", "--model", "oracle"]
    # One pair under a belief family (the official pairing covers the official environments).
    cmd += ["--harness", "gui", "--model-family", "gemini", "--pairing", "sweep", "--families", "save_drift"]
    cmd += ["--only", "req-edit-01", "--out", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    clean = json.loads((out / "req-edit-01" / "result.json").read_text())
    drift = json.loads((out / "req-edit-01--save_drift" / "result.json").read_text())
    assert clean["state"]["passed"] and not drift["state"]["passed"]
    acts = [json.loads(x) for x in (out / "req-edit-01" / "harness_steps.jsonl").read_text().splitlines()]
    assert all(re.fullmatch(VERBS + r"\(.*\)", a["action"]) for a in acts)
    assert all(a["refused"] is None for a in acts)
    # Points on the grid: every coordinate within 0–1000, in the screenshot.
    points = [
        tuple(map(float, m))
        for a in acts
        for m in re.findall(r"mouse_click\(([\d.]+), ([\d.]+)\)", a["action"])
    ]
    assert points and all(0 <= x <= 1000 and 0 <= y <= 1000 for x, y in points)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["meta"]["harness"] == "gui" and summary["meta"]["model_family"] == "gemini"
