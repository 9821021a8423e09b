"""`webfovea replay` reloads the tasks of the suite the run was made on: a hostile
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
    from webfovea.app import BenchOptions, run_bench

    run = tmp_path / "hostile"
    # The run in-process (tests/cli runs `bench`); the replay through the command, its one CLI test.
    assert (
        run_bench(BenchOptions("hostile", model="oracle", only="hostile-geometry", out_dir=run)).summary.tasks
        == 1
    )
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


def test_a_breakingweb_run_replays_against_its_own_tasks(tmp_path: Path) -> None:
    from webfovea.app import BenchOptions, ReplayOptions, run_bench, run_replay

    run = run_bench(BenchOptions("breakingweb", limit=1, out_dir=tmp_path / "bw"))
    assert run.summary.passed == 1
    (recorded,) = json.loads((tmp_path / "bw" / "tasks.json").read_text())
    replayed = run_replay(ReplayOptions(tmp_path / "bw", out_dir=tmp_path / "replayed"))
    (task,) = json.loads((tmp_path / "replayed" / "tasks.json").read_text())
    # Reloaded from the breakingweb suite: the same task on the new sites, judged by its state.
    assert task["task_id"] == recorded["task_id"] and task["website"] != recorded["website"]
    assert replayed.summary.passed == 1
    result = json.loads((tmp_path / "replayed" / recorded["task_id"] / "result.json").read_text())
    assert result["state"]["passed"]
