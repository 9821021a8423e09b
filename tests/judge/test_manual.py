"""Protocol II: manuals from judged trajectories, and bench --docs / --protocol checks."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.judge import folders
from webfovea.cli.main import app
from webfovea.judge.manual import ManualError, build_manual, docs_for
from webfovea.judge.records import JudgeRecord, write_judge_record


def test_manual_needs_a_successful_verdict(tmp_path) -> None:
    task = folders.ours(tmp_path / "run" / "t1", steps=3)
    with pytest.raises(ManualError, match="no judge verdict"):
        build_manual(task)
    write_judge_record(
        tmp_path / "run" / "judge",
        "t1",
        JudgeRecord(task_id="t1", method="rule", judge_model="rule", verdict=True),
    )
    text = build_manual(task)
    assert text == build_manual(task)  # deterministic
    assert "Start at the site's page /stats." in text and "1. Click the control" in text
    assert "I am sure" not in text and text.rstrip().endswith("Read the value and report it.")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "t1.md").write_text(text)
    assert docs_for("t1--vabc123", tmp_path / "docs") == text and docs_for("t2", tmp_path / "docs") is None


def test_cli_manual_and_bench_protocol_checks(tmp_path) -> None:
    folders.ours(tmp_path / "run" / "t1")
    r = CliRunner().invoke(app, ["manual", str(tmp_path / "run" / "t1")])
    assert r.exit_code == 2 and "--force" in r.output
    r = CliRunner().invoke(
        app, ["manual", str(tmp_path / "run" / "t1"), "--force", "--out", str(tmp_path / "m.md")]
    )
    assert r.exit_code == 0 and (tmp_path / "m.md").read_text().startswith("# How to:")
    r = CliRunner().invoke(app, ["bench", "builtin", "--protocol", "II"])
    assert r.exit_code == 2 and "needs --docs" in r.output
    r = CliRunner().invoke(app, ["bench", "builtin", "--faults", "all", "--model", "openai:x"])
    assert r.exit_code == 2 and "--model oracle" in r.output


def test_cli_evidence_json(tmp_path) -> None:
    import json

    f = folders.webretriever(tmp_path / "wr")
    r = CliRunner().invoke(app, ["judge", "evidence", str(f), "--json", "--filter", "naveval"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for key in (
        "task",
        "start_url",
        "urls",
        "requests",
        "dropped",
        "actions",
        "screenshot",
        "evidence_sha256",
    ):
        assert key in data
    assert data["screenshot"] == "10.png" and "answer" not in data
    r = CliRunner().invoke(app, ["judge", "evidence", str(f), "--protocol", "III"])
    assert r.exit_code == 0 and "- agent answer:" in r.output and "- network requests:" in r.output
    r = CliRunner().invoke(app, ["judge", "run", str(tmp_path / "nowhere")])
    assert r.exit_code == 2 and "not a" in r.output and "webfovea bench" in r.output
