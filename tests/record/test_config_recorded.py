"""One record of the configuration: a real `webfovea bench` run records the same components-off
list in result.json, run.json and summary.json, and the whole HarnessConfig in result.json and
run.json — for `--profile reference` that is every component."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from tests.eval.synthetic import task, write_task
from tests.support.servers import serve_pages
from webfovea.config import ALL_COMPONENTS, make_config
from webfovea.eval.compare import compare_runs, format_comparison
from webfovea.eval.summary import compute_summary, format_summary_table, write_summary
from webfovea.record import (
    StepRecord,
    append_step,
    new_run_info,
    read_result,
    read_run_info,
    read_summary_file,
    write_run_info,
)

ALL = sorted(c.value for c in ALL_COMPONENTS)
PAGE = "<html><body><p>Total: 42</p></body></html>"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "bench", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env=dict(os.environ),
    )


def recorded_replies(folder: Path) -> None:
    """A recorded run to replay: one reply that answers at once (valid under every profile)."""
    (folder / "t1").mkdir(parents=True)
    reply = "Thought: The total is shown.\nAction: finished(content='42')"
    append_step(folder / "t1", StepRecord(step=0, raw_reply=reply, cleaned_reply=reply))


@pytest.mark.parametrize(
    ("flags", "profile", "disabled"),
    [
        (["--profile", "reference"], "reference", ALL),
        (["--disable", "select", "--disable", "fill"], "webfovea", ["fill", "select"]),
    ],
)
def test_bench_records_one_disabled_list_everywhere(tmp_path, flags, profile, disabled):
    recorded_replies(tmp_path / "recorded")
    out = tmp_path / "run"
    with serve_pages({"/": PAGE}) as site:
        tasks = tmp_path / "tasks.json"
        tasks.write_text(
            json.dumps(
                [{"task_id": "t1", "task": "What is the total?", "website": site.url("/"), "answer": "42"}]
            )
        )
        res = bench(str(tasks), "--model", f"replay:{tmp_path / 'recorded'}", "--out", str(out), *flags)
    assert res.returncode == 0, res.stdout + res.stderr

    result = read_result(out / "t1")
    run = read_run_info(out)
    loaded = read_summary_file(out)
    assert result is not None and run is not None and loaded is not None
    summary, partial = loaded
    assert result.status == "finished" and not partial and summary.passed == 1
    assert result.disabled == run.disabled == summary.meta.disabled == disabled
    assert result.config == run.config and result.config is not None
    assert sorted(set(ALL) - set(result.config["components"])) == disabled
    assert result.profile == run.profile == summary.meta.profile == profile


def test_summary_takes_the_recorded_config_not_the_callers_flags(tmp_path):
    t = task("a", "1")
    write_task(tmp_path, t, answer="1", profile="webfovea")  # a legacy result without config
    write_run_info(tmp_path, new_run_info(model="oracle", config=make_config("reference"), workers=1))
    meta = compute_summary(
        tmp_path, [t], complete=True, meta={"profile": "webfovea", "disabled": [], "seed": 4}
    ).meta
    assert (meta.profile, meta.disabled, meta.seed, meta.workers) == ("reference", ALL, 4, 1)


def test_labels_name_only_what_the_profile_did_not_turn_off(tmp_path):
    ref, abl = tmp_path / "ref", tmp_path / "abl"
    t = task("a", "1")
    for run, config in ((ref, make_config("reference")), (abl, make_config(disable=["select"]))):
        write_task(run, t, answer="1")
        write_run_info(run, new_run_info(model="oracle", config=config, workers=1))
        write_summary(run, [t], complete=True, meta={})
    assert format_comparison(compare_runs(ref, abl)) == "webfovea −select 1/1 vs reference 1/1: +0/−0"
    console = Console(width=200, record=True, color_system=None)
    console.print(format_summary_table(read_summary_file(ref)[0]))
    assert "reference · model oracle" in console.export_text()
