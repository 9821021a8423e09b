"""`webfovea replay` reloads the tasks of the suite the run was made on (issue 19): a hostile
run replayed against the builtin suite kept its old, dead ports and failed every task."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_a_hostile_run_replays_against_the_hostile_tasks(tmp_path: Path) -> None:
    run = tmp_path / "hostile"
    res = cli("bench", "hostile", "--model", "oracle", "--only", "hostile-geometry", "--out", str(run))
    assert res.returncode == 0, res.stderr[-2000:]
    replayed = tmp_path / "replayed"
    res = cli("replay", str(run), "--out", str(replayed))
    assert res.returncode == 0, res.stderr[-2000:]
    sites = re.search(r"proving ground: (http://\S+) ", res.stdout)
    assert sites, res.stdout
    (task,) = json.loads((replayed / "tasks.json").read_text())
    # The sites started again (new ports): the task replayed is the hostile task on these sites.
    assert (task["task_id"], task["website"]) == ("hostile-geometry", sites[1] + "/hostile/geometry")
    summary = json.loads((replayed / "summary.json").read_text())
    assert summary["passed"] == 1 and summary["tasks"] == 1
