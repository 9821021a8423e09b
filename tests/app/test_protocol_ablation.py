"""`webfovea ab --protocol-ablation`: the seed's ablation table from one call, on the proving
ground with the oracle. A task and its `wrong_row` variant (the right page, the wrong row read)
make the rows differ where they must: navigation succeeds twice, the extracted answer once, so
removing the extraction requirement gains exactly the variant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea.app.errors import AppError
from webfovea.app.protocol_ablation import AblationOptions, run_protocol_ablation
from webfovea.judge.ablation import paired
from webfovea_proving_ground.oracle.faults import variant_id

TASK = "stats-select-03-nz"
VARIANT = variant_id(TASK, "wrong_row")


def test_one_call_runs_three_arms_and_writes_the_table(tmp_path: Path) -> None:
    manuals = tmp_path / "manuals"
    manuals.mkdir()
    (manuals / f"{TASK}.md").write_text("1. Choose the country in the filter.\n", encoding="utf-8")
    out = tmp_path / "ablation"
    result = run_protocol_ablation(AblationOptions("builtin", manuals, out, only=TASK, faults="wrong_row"))
    for arm in ("I", "II", "III"):
        assert (out / arm / "summary.json").exists() and (out / arm / "judge" / "summary.json").exists()
    # The II arm ran with the manual in its instruction; the I arm without.
    tasks_ii = json.loads((out / "II" / "tasks.json").read_text())
    tasks_i = json.loads((out / "I" / "tasks.json").read_text())
    assert all("Operational documentation" in t["task"] for t in tasks_ii)
    assert not any("Operational documentation" in t["task"] for t in tasks_i)

    rows = json.loads((out / "ablation.json").read_text())["rows"]
    assert rows == result.table["rows"]
    got = [(r["protocol"], r["arm"], r["outcome"], r["passed"], r["n"]) for r in rows]
    assert got == [
        ("I", "I", "navigation", 2, 2),
        ("I", "II", "navigation", 2, 2),
        ("II", "II", "navigation", 2, 2),
        ("II", "I", "navigation", 2, 2),
        ("III", "III", "answer", 1, 2),
        ("III", "III", "navigation", 2, 2),
    ]
    no_extraction = rows[5]["vs"]
    assert no_extraction["gained"] == [VARIANT] and no_extraction["lost"] == []
    assert no_extraction["difference"] == 0.5 and no_extraction["mcnemar_p"] == 1.0
    assert rows[1]["vs"]["difference"] == 0.0
    md = (out / "ablation.md").read_text()
    assert "| III | remove extraction requirement | navigation | 100.0 | 2 | +50.0" in md
    assert "ORACLE NUMBERS" in md and any("input" in line and "run III/" in line for line in result.lines)
    assert (out / "III" / "verification.jsonl").exists()  # Protocol III still queues its answers


def test_paired_difference_by_hand() -> None:
    base = {"a": True, "b": False, "c": False, "d": None}
    other = {"a": True, "b": True, "c": True, "d": True}
    got = paired(base, other, "x")
    assert (got["pairs"], got["difference"], got["gained"], got["lost"]) == (3, 0.6667, ["b", "c"], [])
    assert got["mcnemar_p"] == 0.5  # two discordant, both one way: 2 * (1/4)


def test_manuals_are_required_before_any_arm_runs(tmp_path: Path) -> None:
    with pytest.raises(AppError, match="no <task_id>.md manual"):
        empty = tmp_path / "empty"
        empty.mkdir()
        run_protocol_ablation(AblationOptions("builtin", empty, tmp_path / "out", only=TASK))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--protocol-ablation", "--arms", "webfovea,reference"], "runs its own three arms"),
        (["--protocol-ablation"], "needs --manuals DIR"),
        (["--arms", "webfovea,reference", "--manuals", "m"], "go with --protocol-ablation"),
    ],
)
def test_the_command_refuses_options_that_do_not_go_together(
    tmp_path: Path, args: list[str], says: str
) -> None:
    from typer.testing import CliRunner

    from webfovea.cli.main import app

    r = CliRunner().invoke(
        app, ["ab", "builtin", "--out", str(tmp_path / "out"), *args], env={"COLUMNS": "200"}
    )
    assert r.exit_code != 0 and says in " ".join(r.output.split())
    assert not (tmp_path / "out").exists()
