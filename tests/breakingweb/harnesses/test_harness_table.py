"""The harness × condition table on a case small enough to check by hand: two harnesses, three
pairs each, written as the run folders a paired bench run writes (summary.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea_breakingweb.harnesses.__main__ import main
from webfovea_breakingweb.harnesses.oracle import INSTRUMENT
from webfovea_breakingweb.harnesses.table import TableError, harness_table, markdown


def _row(passed: bool, status: str = "finished", answer: str | None = "done") -> dict:
    return {"status": status, "passed": passed, "score": float(passed), "answer": answer, "seconds": 15.0}


def _run(folder: Path, harness: str, rows: dict[str, dict]) -> Path:
    folder.mkdir(parents=True)
    meta = {
        "model": "oracle",
        "suite": "breakingweb",
        "paired": True,
        "pairing": "official",
        "harness": harness,
        "started": "2026-12-07T10:00:00+00:00",
        "ended": "2026-12-07T10:01:30+00:00",
    }
    summary = {
        "per_task": rows,
        "meta": meta,
        "complete": True,
        "n_tasks": len(rows),
        "passed": 0,
        "success_rate": 0.0,
    }
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


@pytest.fixture
def runs(tmp_path: Path) -> list[str]:
    # text: clean 3/3; under intervention a passes, b fails having claimed success (belief),
    # c fails at the step cap (action).  Δ = 1 - 1/3.
    text = _run(
        tmp_path / "text",
        "text",
        {
            "a": _row(True),
            "a--x": _row(True),
            "b": _row(True),
            "b--y": _row(False),
            "c": _row(True),
            "c--z": _row(False, "max_steps", None),
        },
    )
    # gui: clean 2/3 (c fails), intervention 0/3, each failed intervention run gave up (action).
    gui = _run(
        tmp_path / "gui",
        "gui",
        {
            "a": _row(True),
            "a--x": _row(False, "finished", None),
            "b": _row(True),
            "b--y": _row(False, "finished", ""),
            "c": _row(False, "max_steps", None),
            "c--z": _row(False, "max_steps", None),
        },
    )
    return [str(text), f"{gui}=gui (claude)"]


def test_the_table_by_hand(runs: list[str]) -> None:
    table = harness_table(runs)
    text, gui = table["harnesses"]
    assert (text["harness"], text["pairs"], text["clean_pass"], text["intervention_pass"]) == (
        "text",
        3,
        1.0,
        0.3333,
    )
    assert text["delta"] == 0.6667 and len(text["delta_ci"]) == 2
    assert text["delta_ci"][0] <= 0.6667 <= text["delta_ci"][1] and text["delta_ci"][1] == 1.0
    assert (text["belief_failures"], text["action_failures"]) == (1, 1)
    assert (gui["harness"], gui["clean_pass"], gui["intervention_pass"], gui["delta"]) == (
        "gui (claude)",
        0.6667,
        0.0,
        0.6667,
    )
    assert (gui["belief_failures"], gui["action_failures"]) == (0, 3)  # an empty or no answer is a give-up
    assert (gui["clean_belief_failures"], gui["clean_action_failures"]) == (0, 1)
    assert text["wall_s"] == 90.0
    # The harness effect: gui − text on the same pairs: clean −1/3, intervention −1/3.
    (effect,) = table["harness_effect"]
    assert (effect["against"], effect["pairs"], effect["clean_diff"], effect["intervention_diff"]) == (
        "text",
        3,
        -0.3333,
        -0.3333,
    )
    assert table["decision_maker"] == INSTRUMENT
    md = markdown(table)
    assert INSTRUMENT in md and "| text | 3 | 100% | 33% | +0.67 [" in md


def test_the_command_writes_json_and_markdown_and_says_it_is_an_instrument(
    runs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*runs, "--json", str(tmp_path / "t.json"), "--md", str(tmp_path / "t.md")]) == 0
    printed = capsys.readouterr().out
    assert "instrument" in printed and "gui (claude)" in printed
    assert json.loads((tmp_path / "t.json").read_text())["decision_maker"] == INSTRUMENT
    assert "instrument" in (tmp_path / "t.md").read_text()


def test_a_folder_that_is_not_a_paired_run_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="no summary.json"):
        harness_table([str(tmp_path)])
