"""The task list over many tasks: pages of 50, filters over the whole run, disagreement."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from tests.judge import folders
from tests.view.fixture_run import serving
from webfovea.judge.compare import JUDGES_DIR
from webfovea.judge.labels import Label
from webfovea.view.index import disagree


def _many(run: Path, n: int) -> None:
    for k in range(n):
        d = run / f"t{k:03d}"
        d.mkdir(parents=True)
        status = "timeout" if k % 10 == 0 else "finished"
        (d / "result.json").write_text(
            json.dumps({"task_id": f"t{k:03d}", "status": status, "answer": str(k)})
        )
    (run / "no-result").mkdir()  # not a task folder
    for method, flip in (("rule", False), ("naveval", True)):
        out = run / JUDGES_DIR / method
        out.mkdir(parents=True)
        per_task = {f"t{k:03d}": (k % 3 == 0) != (flip and k % 7 == 0) for k in range(n)}
        (out / "summary.json").write_text(json.dumps({"method": method, "per_task": per_task}))


def _ids(url: str) -> list[str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return re.findall(r'<tr data-task-id="([^"]+)"', r.read().decode())


def test_pages_and_filters_cover_the_whole_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _many(run, 120)
    with serving(run) as url:
        assert _ids(url + "run/0/") == [f"t{k:03d}" for k in range(50)]
        assert _ids(url + "run/0/?page=3") == [f"t{k:03d}" for k in range(100, 120)]
        assert _ids(url + "run/0/?status=timeout") == [f"t{k:03d}" for k in range(0, 120, 10)]
        # rule and naveval differ exactly where naveval is flipped: every 7th task
        assert _ids(url + "run/0/?disagree=1") == [f"t{k:03d}" for k in range(0, 120, 7)]
        assert _ids(url + "run/0/?disagree=1&page=2") == []


def test_disagreement_counts_the_label_and_leaves_out_unsure_and_no_verdict() -> None:
    assert not disagree([True, True, None], None)
    assert disagree([True, False], None)
    assert disagree([True, True], Label("t", "failure"))
    assert not disagree([True], Label("t", "unsure"))
    assert not disagree([None], Label("t", "failure"))


def test_a_webretriever_layout_task_shows_its_screenshots_and_actions(tmp_path: Path) -> None:
    run = tmp_path / "run"
    folders.webretriever(run / "wr-1", steps=3)
    with serving(run) as url:
        with urllib.request.urlopen(url + "run/0/task/wr-1", timeout=30) as r:
            page = r.read().decode()
        assert re.findall(r'<img src="([^"]+)"', page) == [
            f"/run/0/file/wr-1/trajectory/{n}.png" for n in range(3)
        ]
        assert "&quot;element&quot;: &quot;Search&quot;" in page and "no steps recorded" not in page
        with urllib.request.urlopen(url + "run/0/file/wr-1/trajectory/2.png", timeout=30) as r:
            assert r.read().startswith(b"\x89PNG")
