"""Table 5, Figure 6 and the people's rows of Table 2 from a hand-made people's run (four of
the fixture's six base tasks, as the Human-140 panel is a subset of the pairing) beside the two
agent runs of runs_fixture.py; every number is worked out in the comments."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.breakingweb.report.runs_fixture import GUI_RUN, TEXT_RUN, VARIANTS, MakeRun
from webfovea_breakingweb.people.attempts import Attempt, RawEvents, TaskAttempts, write_attempts
from webfovea_breakingweb.report import ReportError, build_report
from webfovea_breakingweb.report.__main__ import main

# base -> {(condition, attempt): (passed, seconds, events)}
PEOPLE = {
    "t1": {
        ("c", "cold"): (1, 60, 30),
        ("i", "cold"): (1, 80, 40),
        ("c", "warm"): (1, 30, 20),
        ("i", "warm"): (1, 40, 25),
    },
    "t3": {
        ("c", "cold"): (1, 50, 20),
        ("i", "cold"): (0, 100, 60),
        ("c", "warm"): (1, 20, 14),
        ("i", "warm"): (1, 50, 30),
    },
    "t5": {
        ("c", "cold"): (0, 90, 50),
        ("i", "cold"): (0, 120, 70),
        ("c", "warm"): (1, 40, 24),
        ("i", "warm"): (0, 60, 40),
    },
    "t6": {
        ("c", "cold"): (1, 70, 36),
        ("i", "cold"): (1, 90, 44),
        ("c", "warm"): (1, 36, 18),
        ("i", "warm"): (1, 44, 28),
    },
}


def people_run(root: Path, bases: dict[str, dict[tuple[str, str], tuple[int, int, int]]] = PEOPLE) -> str:
    folder = root / "people"
    folder.mkdir()
    rows = {}
    for base, cells in bases.items():
        for cond, tid in (("c", base), ("i", f"{base}--{VARIANTS[base]}")):
            attempts = []
            for which in ("cold", "warm"):
                passed, secs, events = cells[(cond, which)]
                attempts.append(
                    Attempt(
                        attempt=which,  # type: ignore[arg-type]
                        ending="done",
                        status="finished",
                        passed=bool(passed),
                        score=float(passed),
                        seconds=secs,
                        events=RawEvents(clicks=events),
                    )
                )
            (folder / tid).mkdir()
            write_attempts(folder / tid, TaskAttempts(task_id=tid, attempts=attempts))
            cold = attempts[0]
            rows[tid] = {
                "status": "finished",
                "passed": cold.passed,
                "score": cold.score,
                "seconds": cold.seconds,
            }
    meta = {"model": "human", "seed": 42, "suite": "breakingweb", "paired": True, "pairing": "official"}
    meta |= {"catalogue": "abc123", "harness": "human", "panel": "human-140"}
    (folder / "summary.json").write_text(json.dumps({"per_task": rows, "meta": meta, "complete": True}))
    return str(folder)


@pytest.fixture
def three(make_run: MakeRun, tmp_path: Path) -> list[str]:
    return [
        str(make_run("text", TEXT_RUN)),
        str(make_run("gui", GUI_RUN, harness="gui")),
        people_run(tmp_path),
    ]


def test_table5_by_hand(three: list[str]) -> None:
    t5 = build_report(three)["table5"]
    got = {
        (r["condition"], r["attempt"]): (r["n"], r["pass"], r["median_seconds"], r["median_events"])
        for r in t5["rows"]
    }
    assert got == {
        ("clean", "cold"): (4, 0.75, 65.0, 33.0),  # t5 failed; medians of 50 60 70 90 and 20 30 36 50
        ("clean", "warm"): (4, 1.0, 33.0, 19.0),
        ("intervention", "cold"): (4, 0.5, 95.0, 52.0),  # t3, t5 failed
        ("intervention", "warm"): (4, 0.75, 47.0, 29.0),  # t5 failed
    }
    assert [(r["condition"], r["attempt"]) for r in t5["rows"]] == [
        ("clean", "cold"),
        ("clean", "warm"),
        ("intervention", "cold"),
        ("intervention", "warm"),
    ]  # Table 5's order
    assert t5["drops"]["cold"]["drop"] == 0.25 and t5["drops"]["warm"]["drop"] == 0.25
    lo, hi = t5["drops"]["warm"]["drop_ci"]
    assert lo <= 0.25 <= hi


def test_people_rows_join_table2_and_stay_out_of_the_agents_figures(three: list[str]) -> None:
    rep = build_report(three)
    rows = {r["run"]: r for r in rep["table2"]["rows"]}
    assert list(rows) == ["m1", "v-m1", "human-cold", "human-warm"]
    ver = rows["human-cold"]["cells"]["verification"]  # t5 failed both, t6 passed both
    assert (ver["n"], ver["clean_pass"], ver["intervention_pass"]) == (2, 0.5, 0.5)
    assert rows["human-warm"]["cells"]["all"]["drop"] == 0.25
    assert [r["run"] for r in rep["table3"]["rows"]] == ["m1", "v-m1"]
    assert sum(f["n"] for f in rep["figure4b"]["ranking"]) == 12  # the agents' 2 × 6 pairs


def test_figure6_by_hand(three: list[str]) -> None:
    f6 = build_report(three)["figure6"]
    a = {r["run"]: r for r in f6["a"]}
    # warm: t1, t3, t6 passed under intervention in 40, 50, 44 s
    assert a["human-warm"] | {} == {
        "run": "human-warm",
        "human": True,
        "n": 4,
        "intervention_pass": 0.75,
        "successes": 3,
        "median_seconds": 44.0,
        "q1_seconds": 42.0,
        "q3_seconds": 47.0,
    }
    # the agents on the panel's four pairs only: text passes t1, t6; gui only t5
    assert (a["m1"]["n"], a["m1"]["intervention_pass"], a["v-m1"]["intervention_pass"]) == (4, 0.5, 0.25)
    b = f6["b"]
    # people warm: t1 0, t3 0, t5 1, t6 0; agents (text, gui): t1 (0, 1), t3 (1, 1), t5 (1, 0), t6 (0, 1)
    assert {p: (c["n"], c["human_warm_drop"], c["agent_mean_drop"]) for p, c in b.items()} == {
        "backtracking": (1, 0.0, 1.0),
        "grounding": (1, 0.0, 0.5),
        "verification": (2, 0.5, 0.5),
    }
    assert b["verification"]["human_warm_drop_ci"] == [0.0, 1.0]  # two bases: resamples span 0 to 1


def test_a_people_run_outside_the_agents_pairs_is_refused(make_run: MakeRun, tmp_path: Path) -> None:
    text = str(make_run("text", {k: v for k, v in TEXT_RUN.items() if k != "t6"}))
    with pytest.raises(ReportError, match="different pairs"):
        build_report([text, people_run(tmp_path)])


def test_table5_and_figure6_in_every_format(three: list[str], tmp_path: Path) -> None:
    out = tmp_path / "rep"
    assert main([*three, "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert (
        "## Table 5: Human-140 panel summary" in md and "| intervention | warm | 4 | 75.0% | 47 | 29 |" in md
    )
    assert "## Figure 6" in md
    page = (out / "report.html").read_text()
    assert "Table 5: Human-140 panel summary" in page and "stroke-dasharray" in page  # the 1:1 diagonal
    t5 = list(csv.DictReader((out / "table5.csv").open()))
    assert (t5[0]["condition"], t5[0]["attempt"], t5[0]["pass"]) == ("clean", "cold", "0.75")
    assert {"figure6a.csv", "figure6b.csv"} <= {p.name for p in out.iterdir()}
    # without a people's run the report says so
    rep = tmp_path / "agents"
    assert main([three[0], "--out", str(rep)]) == 0
    assert "No people's run in this report" in (rep / "report.md").read_text()
