"""`webfovea export --format webretriever` on a real oracle run: the folders meet the layout
WebRetriever's NavEval evaluator reads (docs/export.md), statuses follow how each task ended,
never its truth, and our own reader of WebRetriever folders reads the export back."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from webfovea.export import JUDGED_STATUSES, ExportError, export_webretriever, webretriever_status
from webfovea.judge.evidence import build_evidence
from webfovea.judge.folder import read_task_folder

WR_STATUSES = {"SUCCESS", "FAIL", "FAIL_SCROLLDOWN", "FAIL_CALL_USER", ""}
REQUEST_FIELDS = {"url", "method", "headers", "resource_type", "post_data", "raw_post_data", "json_data"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ),
    )


def contract_violations(folder: Path) -> list[str]:
    """What WebRetriever's evaluator needs of one task folder (docs/export.md), checked apart
    from our writer."""
    bad: list[str] = []
    result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    for key, kind in (("task", str), ("website", str), ("urls", list), ("status", str), ("actions", list)):
        if not isinstance(result.get(key), kind):
            bad.append(f"result.json {key} is not a {kind.__name__}")
    if result.get("status") not in WR_STATUSES:
        bad.append(f"status {result.get('status')!r}")
    capture = json.loads((folder / "capture.json").read_text(encoding="utf-8"))
    reqs = capture if isinstance(capture, list) else capture.get("all_requests")
    if not isinstance(reqs, list):
        bad.append("capture.json has no all_requests list")
    else:
        bad += [f"request lacks {sorted(REQUEST_FIELDS - set(r))}" for r in reqs if REQUEST_FIELDS - set(r)]
    names = sorted(os.listdir(folder / "trajectory"))
    if not names or not all(re.fullmatch(r"\d+\.png", n) for n in names):
        bad.append(f"trajectory holds {names[:5]}")
    else:
        steps = sorted(int(n.split(".")[0]) for n in names)
        if steps != list(range(len(steps))):
            bad.append(f"trajectory steps {steps} are not 0..n-1")
        for n in names:
            Image.open(folder / "trajectory" / n).verify()
    judged = result.get("status") in JUDGED_STATUSES
    if judged != (folder / "filtered_requests.json").exists():
        bad.append("filtered_requests.json present for a status the evaluator does not judge, or missing")
    return bad


def test_export_meets_the_evaluators_layout(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "wr"
    res = cli("export", str(run_dir), str(out), "--format", "webretriever")
    assert res.returncode == 0, res.stderr
    assert "exported 2 tasks" in res.stdout
    folders = sorted(p for p in out.iterdir())
    assert len(folders) == 2 and all(re.fullmatch(r"\d+_.+", p.name) for p in folders)
    for folder in folders:
        assert contract_violations(folder) == [], folder.name
        result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        ours = json.loads(
            (run_dir / folder.name.split("_", 1)[1] / "result.json").read_text(encoding="utf-8")
        )
        # The fault run answered wrong, yet it declared it was done: SUCCESS, as WebRetriever's
        # agent writes it. The truth never leaks into the export.
        assert ours["status"] == "finished" and result["status"] == "SUCCESS"
        text = (folder / "result.json").read_text(encoding="utf-8")
        assert "truth" not in result and "fault" not in text.replace("webfovea_status", "")
        assert result["urls"][0] == ours["website"]
        shots = sorted((run_dir / folder.name.split("_", 1)[1]).glob("step_[0-9][0-9][0-9].png"))
        assert len(os.listdir(folder / "trajectory")) == len(shots)
        assert (folder / "trajectory" / "0.png").read_bytes() == shots[0].read_bytes()
        # Our reader of WebRetriever's layout reads the export back: the same screenshots,
        # the same task, requests in WebRetriever's shape.
        rec = read_task_folder(folder)
        assert rec.layout == "webretriever" and rec.task == ours["task"] and not rec.problems
        assert len(rec.screenshots) == len(shots)
        # filtered_requests.json is our filter's evidence of the source folder, as the judge sees it
        filtered = json.loads((folder / "filtered_requests.json").read_text(encoding="utf-8"))
        src = run_dir / folder.name.split("_", 1)[1]
        assert filtered == build_evidence(src, flt="webfovea").requests
        assert len(rec.requests) == len(json.loads((src / "capture.json").read_text())["requests"])


def test_statuses_follow_the_ending_and_failed_runs_are_not_judged(run_dir: Path, tmp_path: Path) -> None:
    assert webretriever_status("finished") == "SUCCESS"
    assert webretriever_status("scroll_breaker") == "FAIL_SCROLLDOWN"
    assert webretriever_status("max_steps") == ""
    for s in ("timeout", "loop_breaker", "stale_refs", "model_error", "browser_error", "worker_lost", None):
        assert webretriever_status(s) == "FAIL"
    # A copy of the run whose second task timed out: exported as FAIL, with no
    # filtered_requests.json (the evaluator's eval stage would judge any folder that has one).
    copy = tmp_path / "run"
    subprocess.run(["cp", "-r", str(run_dir), str(copy)], check=True)
    folder = sorted(p for p in copy.iterdir() if (p / "result.json").exists())[1]
    result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    result["status"] = "timeout"
    (folder / "result.json").write_text(json.dumps(result), encoding="utf-8")
    summary = export_webretriever(copy, tmp_path / "wr")
    assert summary.statuses == {"SUCCESS": 1, "FAIL": 1} and summary.filtered == 1
    failed = tmp_path / "wr" / f"1_{folder.name}"
    assert json.loads((failed / "result.json").read_text())["status"] == "FAIL"
    assert not (failed / "filtered_requests.json").exists()
    assert contract_violations(failed) == []


def test_bad_input_is_refused_with_what_to_do(run_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="not a run folder"):
        export_webretriever(tmp_path / "missing", tmp_path / "o")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    with pytest.raises(ExportError, match="not empty"):
        export_webretriever(run_dir, tmp_path / "busy")
    res = cli("export", str(run_dir), str(tmp_path / "o2"), "--format", "mind2web")
    assert res.returncode == 2 and "unknown format" in " ".join(res.stderr.split())
    res = cli("export", str(tmp_path), str(tmp_path / "o3"))
    assert res.returncode == 2 and "no task folders" in " ".join(res.stderr.split())
