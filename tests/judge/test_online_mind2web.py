"""Online-Mind2Web's trajectory folders (`result.json` + `trajectory/`, both result shapes) judged
with `webfovea judge run --method M`: each folder's facts are read as its auto-eval reads them,
and a loopback judge model's verdicts come back as records."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.cli.main import app
from webfovea.judge.folder import read_task_folder
from webfovea.judge.records import read_judge_records

TASK = "Find the cheapest one-way flight from Columbus to Denver on May 3"


def v1(folder: Path) -> Path:
    """The first shape: flat lists; screenshots by the number in their names (10 after 9)."""
    for n in (0, 1, 2, 10):
        folders.png(folder / "trajectory" / f"{n}_full_screenshot.png", (n, 0, 0))
    (folder / "result.json").write_text(
        json.dumps(
            {
                "task_id": folder.name,
                "task": TASK,
                "action_history": ["<input> -> TYPE: Columbus", "<button> Search -> CLICK"],
                "thoughts": ["type the origin", "search"],
                "final_result_response": "$129 on Frontier",
            }
        )
    )
    return folder


def v2(folder: Path) -> Path:
    """The second shape: one object per step; the last step's action is the agent's output."""
    steps = []
    for i, action in enumerate(["click(Flights)", "type(Denver)", "ANSWER: $129"]):
        folders.png(folder / "trajectory" / f"shot-{i}.png", (100 + i, 0, 0))
        steps.append({"action": action, "thought": f"thought {i}", "screenshot": f"shot-{i}.png"})
    steps.append({"action": "TASK_COMPLETE", "thought": "done", "screenshot": "../../escape.png"})
    (folder / "result.json").write_text(
        json.dumps(
            {
                "schema_version": "online-mind2web-v2",
                "task_id": folder.name,
                "task": TASK,
                "action_history": steps,
                "agent_final_answer": "$129",
            }
        )
    )
    return folder


def _red(path: Path) -> int:
    return Image.open(io.BytesIO(path.read_bytes())).getpixel((0, 0))[0]


def test_both_shapes_read_as_their_auto_eval_reads_them(tmp_path: Path) -> None:
    one = read_task_folder(v1(tmp_path / "fb7b4f78"))
    assert (one.layout, one.task_id, one.task, one.answer) == (
        "online-mind2web",
        "fb7b4f78",
        TASK,
        "$129 on Frontier",
    )
    assert one.actions == ["step 1: <input> -> TYPE: Columbus", "step 2: <button> Search -> CLICK"]
    assert one.thoughts == ["type the origin", "search"]
    assert [_red(p) for p in one.screenshots] == [0, 1, 2, 10]

    two = read_task_folder(v2(tmp_path / "a2c9e1d0"))
    assert two.layout == "online-mind2web" and two.answer == "$129"
    # The final step's action (TASK_COMPLETE) is output, not a page action; its thought goes too.
    assert two.actions == ["step 1: click(Flights)", "step 2: type(Denver)", "step 3: ANSWER: $129"]
    assert two.thoughts == ["thought 0", "thought 1", "thought 2"]
    assert [_red(p) for p in two.screenshots] == [100, 101, 102]
    assert any("escape.png" in p for p in two.problems)  # a name with a folder in it is not read


def test_judge_run_on_online_mind2web_folders_gets_the_loopback_verdicts(tmp_path: Path) -> None:
    run = tmp_path / "om2w"
    v1(run / "fb7b4f78")
    v2(run / "a2c9e1d0")
    # Folders are judged in name order with one worker: a2c9… first.
    script = [openai_ok("The flight was found.\nSUCCESS"), openai_ok("Wrong date.\nNOT SUCCESS")]
    with fake_llm(script) as srv:
        r = CliRunner().invoke(
            app,
            ["judge", "run", str(run), "--method", "webvoyager", "--judge", "openai:judge-1"]
            + ["--base-url", srv.base_url, "--workers", "1", "--protocol", "III"],
        )
        bodies = [x.body for x in srv.received]
    assert r.exit_code == 0, r.output
    records = read_judge_records(run / "judge")
    assert {t: rec.verdict for t, rec in records.items()} == {"a2c9e1d0": True, "fb7b4f78": False}
    assert records["fb7b4f78"].reasoning and "Wrong date" in records["fb7b4f78"].reasoning
    # WebVoyager's evaluator sends the task, the answer and the last screenshots.
    texts = [" ".join(p.get("text", "") for p in b["messages"][1]["content"]) for b in bodies]
    assert TASK in texts[0] and "$129" in texts[0] and "$129 on Frontier" in texts[1]
    images = [sum(p["type"] == "image_url" for p in b["messages"][1]["content"]) for b in bodies]
    assert images == [3, 4]
    summary = json.loads((run / "judge" / "summary.json").read_text())
    assert (summary["passed"], summary["failed"], summary["method"]) == (1, 1, "webvoyager")
