"""Figure 5 (failure landscape, calibration, modality) on the two-run fixture with failure modes
and endings set by hand; every number below is worked out from the rows in the comments."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from tests.breakingweb.report.runs_fixture import GUI_RUN, TEXT_RUN, MakeRun
from webfovea_breakingweb.report import build_report
from webfovea_breakingweb.report.__main__ import main


def _patch(folder: Path, changes: dict[str, dict[str, Any]]) -> str:
    summary = json.loads((folder / "summary.json").read_text())
    for tid, change in changes.items():
        summary["per_task"][tid].update(change)
    (folder / "summary.json").write_text(json.dumps(summary))
    return str(folder)


@pytest.fixture
def runs(make_run: MakeRun) -> list[str]:
    # text: failed intervention runs t2, t3, t4, t5; t3 ran out of steps, the others said done
    text = _patch(
        make_run("text", TEXT_RUN),
        {
            "t2--hidden_labels": {"taxonomy": "misleading_success_taken"},  # belief
            "t3--session_expiry": {"status": "max_steps", "taxonomy": "retry_loop"},  # action
            "t4--conflict_409": {"taxonomy": "silent_overreach"},  # overreach
        },  # t5: no label (other)
    )
    # gui: failed t1, t2, t3, t4, t6; t1-t3 never declared done; t5 passed
    gui = _patch(
        make_run("gui", GUI_RUN, harness="gui"),
        {
            "t1--decoys": {"status": "max_steps", "taxonomy": "retry_loop"},
            "t2--hidden_labels": {"status": "max_steps", "taxonomy": "plan_collapse"},
            "t3--session_expiry": {"status": "max_steps"},
            "t4--conflict_409": {"taxonomy": "premature_done"},
            "t6--save_drift": {"taxonomy": "misleading_success_taken"},
        },
    )
    return [text, gui]


def test_composition_is_each_mode_share_of_the_failed_runs(runs: list[str]) -> None:
    text, gui = build_report(runs)["figure5"]["composition"]
    assert (text["run"], text["modality"], text["failed"]) == ("m1", "text", 4)
    assert {m: (v["n"], v["share"], v["class"]) for m, v in text["modes"].items()} == {
        "misleading_success_taken": (1, 0.25, "belief"),
        "retry_loop": (1, 0.25, "action"),
        "silent_overreach": (1, 0.25, "overreach"),
        "unlabelled": (1, 0.25, "other"),
    }
    assert (gui["run"], gui["modality"], gui["failed"]) == ("v-m1", "gui", 5)
    assert {m: v["share"] for m, v in gui["modes"].items()} == dict.fromkeys(
        ["misleading_success_taken", "plan_collapse", "premature_done", "retry_loop", "unlabelled"], 0.2
    )


def test_calibration_is_finish_rate_against_failed_given_done(runs: list[str]) -> None:
    text, gui = build_report(runs)["figure5"]["calibration"]
    # text: 5 of 6 intervention runs said done (not t3); of those t2, t4, t5 failed
    assert text == {
        "run": "m1",
        "modality": "text",
        "n": 6,
        "declared_done": 5,
        "finish_rate": 0.8333,
        "failed_done": 3,
        "p_failed_given_done": 0.6,
    }
    # gui: t4, t5, t6 said done; t4 and t6 failed
    assert (gui["declared_done"], gui["finish_rate"], gui["failed_done"], gui["p_failed_given_done"]) == (
        3,
        0.5,
        2,
        0.6667,
    )


def test_failure_classes_pool_by_modality(runs: list[str], make_run: MakeRun) -> None:
    mod = build_report(runs)["figure5"]["by_modality"]
    assert mod["text"]["failed"] == 4 and mod["gui"]["failed"] == 5
    assert {k: v["n"] for k, v in mod["text"]["classes"].items()} == dict.fromkeys(
        ["belief", "action", "overreach", "other"], 1
    )
    assert {k: (v["n"], v["share"]) for k, v in mod["gui"]["classes"].items()} == {
        "belief": (2, 0.4),
        "action": (2, 0.4),
        "overreach": (0, 0.0),
        "other": (1, 0.2),
    }
    # a second GUI-only run pools with the first: a webfovea run in vision is GUI-only
    third = make_run("vision", GUI_RUN, harness="webfovea", model="m2", observation="vision")
    pooled = build_report([*runs, str(third)])["figure5"]["by_modality"]["gui"]
    assert pooled["runs"] == ["v-m1", "v-m2"] and pooled["failed"] == 5 + 5


def test_figure5_in_every_format_beside_its_definition(runs: list[str], tmp_path: Path) -> None:
    out = tmp_path / "rep"
    assert main([*runs, "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert "## Figure 5: failure landscape" in md and "P(failed | declared done)" in md
    assert "| v-m1 | gui | 6 | 50.0% (3) | 66.7% (2 of 3) |" in md
    page = (out / "report.html").read_text()
    assert "Figure 5: failure landscape" in page and "finish rate" in page
    assert "<circle" in page and "<rect x=" in page  # a circle for the text run, a square for GUI
    b = list(csv.DictReader((out / "figure5b.csv").open()))
    assert [(r["run"], r["finish_rate"], r["p_failed_given_done"]) for r in b] == [
        ("m1", "0.8333", "0.6"),
        ("v-m1", "0.5", "0.6667"),
    ]
    assert {"figure5a.csv", "figure5c.csv"} <= {p.name for p in out.iterdir()}
    assert json.loads((out / "report.json").read_text())["figure5"]["by_modality"]["gui"]["failed"] == 5
