"""Protocol II: what a manual writer is given about a trajectory (facts, never thoughts), what the
oracle writes from it, and `webfovea manual` / `bench --protocol II --manuals` on folders."""

from __future__ import annotations

import asyncio
import json

import pytest
from typer.testing import CliRunner

from tests.judge import folders
from webfovea.cli.main import app
from webfovea.judge.manuals import docs_for
from webfovea.judge.manuals.facts import read_trajectory_facts
from webfovea.judge.manuals.writer import WriterError, clean_manual, writer_input
from webfovea.judge.records import JudgeRecord, write_judge_record
from webfovea.models.factory import make_model
from webfovea.task import Task


def _fp(url: str, target: dict | None, child: dict | None = None) -> dict:
    fp = {"main": {"url": url, "target": target}, "child": None}
    if child is not None:
        fp["child"] = {"url": "http://x/embed", "target": child}
    return fp


def _trajectory(folder, steps: list[dict]) -> None:
    lines = []
    for i, extra in enumerate(steps):
        folders.png(folder / f"step_{i:03d}_marked.png", (i, 0, 0))
        lines.append(json.dumps({"step": i, "raw_reply": "Thought: sure", "thought": "I am sure", **extra}))
    (folder / "trajectory.jsonl").write_text("\n".join(lines) + "\n")


def _folder(tmp_path):
    f = folders.ours(tmp_path / "run" / "t1", steps=1)
    page = "http://127.0.0.1:4321/stats?country=VN"
    _trajectory(
        f,
        [
            {
                "action": {"name": "click", "args": {"start_box": [5, 5]}},
                "outcome": "executed",
                "feedback": "The page changed: the text of the table 'cpi' changed.",
                "fingerprint_before": _fp(page, {"tag": "button", "role": "", "name": "Apply"}),
                "screenshot_marked": "step_000_marked.png",
            },
            {"action": {"name": "click", "args": {"start_box": [9, 9]}}, "outcome": "rejected"},
            *[
                {
                    "action": {"name": "scroll", "args": {"start_box": [5, 5], "direction": "down"}},
                    "outcome": "executed",
                }
                for _ in range(3)
            ],
            {
                "action": {"name": "click", "args": {"start_box": [6, 6]}},
                "outcome": "executed",
                "fingerprint_before": _fp(page, {"tag": "iframe", "name": ""}, {"tag": "a", "name": "Kenya"}),
            },
            {
                "action": {"name": "click", "args": {"start_box": [7, 7]}},
                "outcome": "executed",
                "fingerprint_before": _fp(page, {"tag": "closed-vault", "name": ""}),
            },
            {
                "action": {"name": "fill", "args": {"start_box": [7, 7], "content": "ha\n"}},
                "outcome": "executed",
                "target": {"ref": "e4", "role": "textbox", "name": "Port name"},
            },
            {
                "action": {"name": "select", "args": {"start_box": [1, 1], "option": "Annual"}},
                "outcome": "executed",
            },
            {"action": {"name": "finished", "args": {"content": "3.4"}}, "outcome": "executed"},
        ],
    )
    return f


def test_facts_name_what_each_step_hit_and_leave_thoughts_out(tmp_path) -> None:
    traj = read_trajectory_facts(_folder(tmp_path))
    assert traj.start == "/stats" and traj.task == "Show CPI for Viet Nam"
    lines = [f.suggested for f in traj.facts]
    assert lines == [
        "Click the button 'Apply'.",
        "Scroll down until the part you need is in view (3 scrolls).",
        "Click the link 'Kenya'.",  # inside the frame: its element, not the iframe
        "Click the control at the marked point.",  # a shadow host without a name
        "Type 'ha' into the text box 'Port name' and press Enter.",
        "Choose 'Annual' in the drop-down list.",
    ]
    assert traj.facts[0].page == "/stats?country=VN" and traj.facts[1].steps == [3, 4, 5]
    assert traj.facts[0].saw == "The page changed: the text of the table 'cpi' changed."  # for the writer
    assert [f.unnamed for f in traj.facts] == [False, False, False, True, False, False]
    inp = writer_input(traj, _folder(tmp_path))
    assert (
        inp.purpose == "manual" and len(inp.history) == 6 and "element: the button 'Apply'" in inp.history[0]
    )
    assert "I am sure" not in json.dumps([inp.task, *inp.history]) and "3.4" not in inp.task
    assert [a.label.split(" (")[0] for a in inp.attachments] == ["Screenshot of step 1"]


def test_the_oracle_writes_the_same_manual_from_the_same_facts(tmp_path) -> None:
    folder = _folder(tmp_path)
    oracle = make_model("oracle", task=Task(task_id="t1", task="x", website="http://127.0.0.1/"))
    inp = writer_input(read_trajectory_facts(folder), folder)
    text = asyncio.run(oracle.next_reply(inp)).text
    assert text == asyncio.run(oracle.next_reply(inp)).text
    manual = clean_manual(text, "x")
    assert manual.startswith("# How to: Show CPI for Viet Nam\n\nStart at the site's page /stats.")
    assert "1. Click the button 'Apply'." in manual and manual.rstrip().endswith("report it.")
    with pytest.raises(WriterError, match="no numbered steps"):
        clean_manual("I cannot help with that.", "x")
    assert clean_manual("```markdown\n1. Click 'Go'.\n```", "Go").startswith("# How to: Go\n\n1. Click")


def _judged(run, task_id: str, verdict: bool | None) -> None:
    rec = JudgeRecord(task_id=task_id, method="rule", judge_model="rule", verdict=verdict)
    write_judge_record(run / "judge", task_id, rec)


def test_cli_writes_manuals_for_successes_and_lists_the_rest(tmp_path) -> None:
    run = tmp_path / "run"
    _folder(tmp_path)
    folders.ours(run / "t2")
    folders.ours(run / "t3")
    _judged(run, "t1", True)
    _judged(run, "t2", False)
    r = CliRunner().invoke(app, ["manual", str(run), "--writer", "oracle"])
    assert r.exit_code == 0, r.output
    assert (run / "manuals" / "t1.md").read_text().startswith("# How to: Show CPI")
    review = {p["task_id"]: p for p in json.loads((run / "manuals" / "needs_review.json").read_text())}
    assert set(review) == {"t1", "t2", "t3"}
    assert review["t2"]["why"].startswith("judged unsuccessful") and review["t3"]["why"] == "not judged"
    assert review["t1"]["manual"] == "t1.md" and "step(s) 7" in review["t1"]["why"]  # the unnamed click
    summary = json.loads((run / "manuals" / "manuals.json").read_text())
    assert summary["written"] == {"t1": str(run / "t1")} and summary["writer"] == "oracle"
    assert docs_for("t1--vabc123", run / "manuals") == (run / "manuals" / "t1.md").read_text()
    r = CliRunner().invoke(app, ["manual", str(run), "--writer", "oracle", "--retries", "1"])
    assert r.exit_code == 2 and "judge the run first" in r.output  # no judge summary to re-judge with
    r = CliRunner().invoke(app, ["manual", str(run), "--writer", "nope:x"])
    assert r.exit_code == 2 and "--writer" in r.output


def test_the_manuals_role_of_a_routes_file_writes_the_manuals(tmp_path) -> None:
    run = tmp_path / "run"
    _folder(tmp_path)
    _judged(run, "t1", True)
    routes = tmp_path / "routes.toml"
    routes.write_text('act = "oracle"\nmanuals = "oracle"\n')
    r = CliRunner().invoke(app, ["manual", str(run), "--models", str(routes)])
    assert r.exit_code == 0, r.output
    assert (run / "manuals" / "t1.md").read_text().startswith("# How to: Show CPI")
    assert json.loads((run / "manuals" / "manuals.json").read_text())["writer"] == "oracle"
    # --writer wins over the file's line; without either, the command says what to give.
    routes.write_text('manuals = "nope:x"\n')
    r = CliRunner().invoke(
        app, ["manual", str(run), "--models", str(routes), "--writer", "oracle", "--out", str(tmp_path / "m")]
    )
    assert r.exit_code == 0, r.output
    routes.write_text('act = "oracle"\n')
    r = CliRunner().invoke(app, ["manual", str(run), "--models", str(routes)])
    assert r.exit_code == 2 and "manuals line" in r.output


def test_bench_protocol_two_takes_a_manuals_folder(tmp_path) -> None:
    r = CliRunner().invoke(app, ["bench", "builtin", "--protocol", "II"])
    assert r.exit_code == 2 and "needs --manuals" in r.output
    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(
        app, ["bench", "builtin", "--protocol", "II", "--manuals", str(tmp_path / "empty")]
    )
    assert r.exit_code == 2 and "<task_id>.md manual" in " ".join(r.output.split())
    r = CliRunner().invoke(app, ["bench", "builtin", "--faults", "all", "--model", "openai:x"])
    assert r.exit_code == 2 and "--model oracle" in r.output
