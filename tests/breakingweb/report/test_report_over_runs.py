"""The report over runs on the two-run fixture of conftest.py, every number worked out by hand:
Table 2, Figure 4(a), Figure 4(b), the refusal of runs that cannot be compared, and the
command's files (JSON, CSV, Markdown, HTML with every run string escaped)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.breakingweb.report.runs_fixture import GUI_RUN, TEXT_RUN, MakeRun
from webfovea.record import TaskRow
from webfovea_breakingweb.paired import Pair
from webfovea_breakingweb.report import ReportError, build_report
from webfovea_breakingweb.report.__main__ import main
from webfovea_breakingweb.report.runs import Run
from webfovea_breakingweb.report.tables import environment_of, figure4b, figure4c


@pytest.fixture
def two(make_run: MakeRun) -> list[str]:
    return [str(make_run("text", TEXT_RUN)), str(make_run("gui", GUI_RUN, harness="gui"))]


def test_table2_by_hand(two: list[str]) -> None:
    t2 = build_report(two)["table2"]
    assert t2["primitives"] == ["backtracking", "grounding", "verification", "all"]
    text, gui = t2["rows"]
    assert (text["run"], gui["run"]) == ("m1", "v-m1")  # the GUI-only run is prefixed as the paper does
    c = {p: (x["n"], x["clean_pass"], x["intervention_pass"], x["drop"]) for p, x in text["cells"].items()}
    # text: grounding t1 passes, t2 fails; backtracking both fail; verification t5 fails, t6 passes
    assert c == {
        "grounding": (2, 1.0, 0.5, 0.5),
        "backtracking": (2, 1.0, 0.0, 1.0),
        "verification": (2, 1.0, 0.5, 0.5),
        "all": (6, 1.0, 0.3333, 0.6667),
    }
    g = {p: (x["n"], x["clean_pass"], x["intervention_pass"]) for p, x in gui["cells"].items()}
    # gui: t4's clean run fails; under intervention only t5 passes
    assert g == {
        "grounding": (2, 1.0, 0.0),
        "backtracking": (2, 0.5, 0.0),
        "verification": (2, 1.0, 0.5),
        "all": (6, 0.8333, 0.1667),
    }
    assert gui["cells"]["all"]["drop"] == pytest.approx(4 / 6, abs=1e-3)


def test_figure4a_is_the_mean_score_drop_with_the_row_maximum(two: list[str]) -> None:
    f = build_report(two)["figure4a"]
    drops = {(p, r): c["score_drop"] for p, cells in f["cells"].items() for r, c in cells.items()}
    # text: grounding (0 + 0.5)/2, backtracking (1 + 0.5)/2, verification (1 + 0)/2
    # gui: grounding (1 + 1)/2, backtracking (1 - 0 + 0 - 0)/2, verification (0 + 0.5)/2
    assert drops == {
        ("grounding", "m1"): 0.25,
        ("backtracking", "m1"): 0.75,
        ("verification", "m1"): 0.5,
        ("grounding", "v-m1"): 1.0,
        ("backtracking", "v-m1"): 0.5,
        ("verification", "v-m1"): 0.25,
    }
    assert f["row_max"] == {"m1": "backtracking", "v-m1": "grounding"}
    assert all(len(c["score_drop_ci"]) == 2 for cells in f["cells"].values() for c in cells.values())


def test_figure4b_says_when_no_family_reaches_50_and_shows_the_top5_anyway(two: list[str]) -> None:
    f = build_report(two)["figure4b"]
    assert f["below_threshold"] and "n ≥ 50" in f["note"]
    # failed intervention runs pooled over both runs: hidden_labels, session_expiry, conflict_409
    # fail in both (2); decoys, fabricated_success, save_drift in one (1); ties by name
    assert [(x["family"], x["n"], x["mass"]) for x in f["top"]] == [
        ("network/conflict_409", 2, 2),
        ("network/session_expiry", 2, 2),
        ("server/hidden_labels", 2, 2),
        ("network/fabricated_success", 2, 1),
        ("seed/decoys", 2, 1),
    ]


def _pairs(family: str, primitive: str, failed: int, n: int) -> list[Pair]:
    ok = TaskRow(status="finished", passed=True, score=1.0)
    bad = TaskRow(status="finished", passed=False, score=0.0)
    return [Pair(family, "network", primitive, ok, bad if i < failed else ok) for i in range(n)]


def test_figure4b_keeps_only_buckets_of_50_or_more() -> None:
    # big: 60 runs, 30 failed (mass 30); small: 40 runs, all 40 failed (mass 40, but n < 50)
    run = Run(
        "x",
        Path("x"),
        "m",
        "text",
        None,
        {},
        _pairs("big", "patience", 30, 60) + _pairs("small", "planning", 40, 40),
        [f"t{i}--x" for i in range(100)],
    )
    f = figure4b([run])
    assert not f["below_threshold"] and f["note"] is None
    assert [(x["family"], x["n"], x["failure_rate"], x["mass"]) for x in f["top"]] == [("big", 60, 0.5, 30)]
    assert [x["family"] for x in f["ranking"]] == ["small", "big"]


def test_runs_that_cannot_be_compared_are_refused_in_one_message(make_run: MakeRun) -> None:
    a = make_run("a", TEXT_RUN)
    b = make_run(
        "b", {k: v for k, v in GUI_RUN.items() if k != "t6"}, harness="gui", seed=7, catalogue="zzz999"
    )
    with pytest.raises(ReportError) as e:
        build_report([str(a), str(b)])
    msg = str(e.value)
    assert "cannot be compared" in msg
    assert "different seed (42: " in msg and "7: " in msg and str(b) in msg
    assert "different catalogue version (abc123" in msg and "zzz999" in msg
    assert "different pairs" in msg and "t6--save_drift" in msg


def test_a_different_pairing_and_a_non_paired_folder_are_refused(make_run: MakeRun, tmp_path: Path) -> None:
    a, b = make_run("a", TEXT_RUN), make_run("b", TEXT_RUN, pairing="sweep", model="m2")
    with pytest.raises(ReportError, match="different pairing"):
        build_report([str(a), str(b)])
    with pytest.raises(ReportError, match="no summary.json"):
        build_report([str(tmp_path / "nothing")])
    with pytest.raises(ReportError, match="share the label m1"):
        build_report([str(a), str(a)])


def test_webfovea_runs_in_vision_are_gui_only_and_structured_are_not(make_run: MakeRun) -> None:
    v = make_run("v", TEXT_RUN, harness="webfovea", model="claude", observation="vision")
    s = make_run("s", TEXT_RUN, harness="webfovea", model="claude", observation="structured")
    assert [r["label"] for r in build_report([str(v), str(s)])["runs"]] == ["v-claude", "claude"]


def test_the_command_writes_every_format_and_escapes_run_strings(
    two: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    hostile = "<script>alert(1)</script>"
    assert main([two[0], f"{two[1]}={hostile}", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Table 2" in printed and "Figure 4(b)" in printed and "server/hidden_labels" in printed
    rep = json.loads((out / "report.json").read_text())
    assert rep["table2"]["rows"][1]["run"] == hostile
    page = (out / "report.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<svg" in page and "Below threshold" in page
    rows = list(csv.DictReader((out / "table2.csv").open()))
    first = next(r for r in rows if r["run"] == "m1" and r["primitive"] == "backtracking")
    assert (first["n"], first["clean_pass"], first["intervention_pass"], first["drop"]) == (
        "2",
        "1.0",
        "0.0",
        "1.0",
    )
    assert {"figure4a.csv", "figure4b.csv", "figure4c.csv", "report.md"} <= {p.name for p in out.iterdir()}
    assert "## Robustness checks" in (out / "report.md").read_text()
    assert main([str(tmp_path / "none"), "--out", str(out)]) == 2


def test_figure4c_is_the_intervention_pass_rate_per_environment(two: list[str]) -> None:
    from webfovea_breakingweb.report.runs import load_run

    text, gui = load_run(two[0]), load_run(two[1])
    # t1-t3 on one app, t4-t6 on another (a hand-made mapping; the report reads the registry)
    f = figure4c([text, gui], lambda tid: "shop" if tid in {"t1", "t2", "t3"} else "bank")
    assert f["environments"] == ["bank", "shop"]
    # text: shop t1 passes of t1-t3 under intervention; bank t6 of t4-t6. gui: only t5 (bank)
    assert f["cells"]["shop"]["m1"] == {"n": 3, "clean_pass": 1.0, "intervention_pass": 0.3333}
    assert f["cells"]["bank"]["v-m1"] == {"n": 3, "clean_pass": 0.6667, "intervention_pass": 0.3333}
    assert f["cells"]["shop"]["v-m1"]["intervention_pass"] == 0.0
    # the registry knows the real tasks, not the fixture's
    env = environment_of(42)
    assert env("t1") == "?" and env("bank-addpayee-01") == "bank"


def test_tables_3_and_4_count_the_failed_intervention_runs(make_run: MakeRun, tmp_path: Path) -> None:
    folder = make_run("text", TEXT_RUN)
    summary = json.loads((folder / "summary.json").read_text())
    rows = summary["per_task"]
    # the text run's failed intervention runs: t2, t3, t4, t5
    rows["t2--hidden_labels"]["taxonomy"] = "misleading_success_taken"  # belief
    rows["t3--session_expiry"].update(status="max_steps", taxonomy="retry_loop")  # action
    rows["t4--conflict_409"]["taxonomy"] = "silent_overreach"  # overreach
    rows["t1"]["taxonomy"] = "premature_done"  # a clean run: not counted
    (folder / "summary.json").write_text(json.dumps(summary))
    rep = build_report([str(folder)])
    (t3,) = rep["table3"]["rows"]
    assert t3["failed"] == 4
    assert t3["modes"] == {
        "misleading_success_taken": 1,
        "retry_loop": 1,
        "silent_overreach": 1,
        "unlabelled": 1,
    }
    (t4,) = rep["table4"]["rows"]
    assert [t4[c] for c in ("failed", "belief", "action", "overreach", "other")] == [4, 1, 1, 1, 1]
    assert t4["belief_share"] == 0.25
    # done-signal FPR: 5 intervention runs ended finished (not t3), 3 of them failed (t2, t4, t5)
    assert (t4["declared_done"], t4["done_fpr"]) == (5, 0.6)
    out = tmp_path / "r"
    assert main([str(folder), "--out", str(out)]) == 0
    assert "60.0% of 5" in (out / "report.md").read_text()
    assert "run,failure_mode,failed_runs" in (out / "table3.csv").read_text()
    assert "Table 4: belief vs action failures" in (out / "report.html").read_text()
