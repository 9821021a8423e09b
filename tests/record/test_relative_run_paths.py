"""Every reader of a run folder given as a relative path, the way the docs write it
(`webfovea export runs/builtin-webfovea OUT`, `webfovea judge run runs/x`), sees the same
screenshots as with an absolute path. The confined reader used to join the folder twice
(`runs/r/runs/r/step_000.png`), found nothing and said nothing: exports without a trajectory,
a judge sent no image."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.judge.folder import read_task_folder
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.record.confined import confined, read_image

NO = '{"all_passed": false, "score": 0.2, "reasoning": "no filter", "details": []}'


@pytest.fixture
def rel_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folders.ours(tmp_path / "runs" / "r" / "t-1", steps=3)
    monkeypatch.chdir(tmp_path)
    return Path("runs/r")


def test_a_path_built_from_a_relative_root_is_read_once(rel_run: Path) -> None:
    task = rel_run / "t-1"
    assert confined(task, task / "step_000.png") == (Path.cwd() / task / "step_000.png").resolve()
    assert confined(task, "step_001.png").name == "step_001.png"
    assert read_image(task, task / "step_002.png").startswith(b"\x89PNG")
    # "." as the root: every relative path is already relative to it
    os.chdir(task)
    assert confined(Path("."), "step_000.png").name == "step_000.png"


def test_the_judge_reads_every_screenshot_of_a_relative_run(rel_run: Path) -> None:
    rec = read_task_folder(rel_run / "t-1")
    assert [p.name for p in rec.screenshots] == ["step_000.png", "step_001.png", "step_002.png"]
    assert len(rec.images()) == 3 and not rec.problems
    with fake_llm([openai_ok(NO)]) as srv:
        opts = JudgeOptions(method="naveval-webfovea", judge="openai:j", base_url=srv.base_url, workers=1)
        judge_run(rel_run, opts)
        body = srv.received[0].body
    parts = body["messages"][-1]["content"]
    assert sum(p.get("type") == "image_url" for p in parts) == 1


def test_export_of_a_relative_run_carries_its_screenshots(rel_run: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "export", str(rel_run), "wr", "--format", "webretriever"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert res.returncode == 0, res.stderr
    (exported,) = Path("wr").iterdir()
    assert sorted(os.listdir(exported / "trajectory")) == ["0.png", "1.png", "2.png"]
