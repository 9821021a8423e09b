"""`webfovea export --format sft|dpo` on a real oracle run: Hugging Face `datasets` reads every
file, the images referenced are the screenshots as sent, every assistant message parses back to
the action the harness executed, the site's truth picks the passed task, and a task passed in
one run and failed in another gives one preference pair at its first diverging step."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.export.conftest import cli
from webfovea.actions import catalog
from webfovea.config import HarnessConfig
from webfovea.export import ExportError
from webfovea.export.training import TrainingOptions, export_training
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.observation.modes import get as get_mode
from webfovea.parsing.reply import parse_reply

datasets = pytest.importorskip("datasets")


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def steps_of(run: Path, folder: str) -> dict[int, dict[str, Any]]:
    return {s["step"]: s for s in lines(run / folder / "trajectory.jsonl")}


def parser_specs(run: Path, folder: str) -> Any:
    config = HarnessConfig.model_validate(json.loads((run / folder / "result.json").read_text())["config"])
    mode = get_mode(config.observation)
    specs = catalog.offered(config, snapshot=mode.snapshot, refs=mode.refs, points=mode.points)
    return catalog.parser_specs(specs)


def parses_back(reply: str, recorded: dict[str, Any], specs: Any) -> bool:
    parsed = parse_reply(reply, specs)
    assert parsed.action is not None, reply
    args = {k: list(v) if isinstance(v, tuple) else v for k, v in parsed.action.args.items()}
    return parsed.action.name == recorded["name"] and args == recorded["args"]


def test_sft_export_is_read_by_datasets_and_parses_back(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    res = cli("export", str(run_dir), str(out), "--format", "sft", "--verdict", "any")
    assert res.returncode == 0, res.stderr
    rows = datasets.load_dataset("json", data_files=str(out / "sft.jsonl"), split="train")
    trl = datasets.load_dataset("json", data_files=str(out / "sft_trl.jsonl"), split="train")
    prov = lines(out / "provenance.jsonl")
    total = sum(
        len(steps_of(run_dir, p.name)) for p in run_dir.iterdir() if (p / "trajectory.jsonl").exists()
    )
    assert len(rows) == len(trl) == len(prov) == total  # every oracle step was executed
    assert {p["passed"] for p in prov} == {True, False} and {p["verdict_source"] for p in prov} == {
        "site truth"
    }
    for row, trl_row, origin in zip(rows, trl, prov, strict=True):
        assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant"]
        user = row["messages"][1]["content"]
        assert user.count("<image>") == len(row["images"]) == len(trl_row["images"]) >= 1
        assert user.startswith("## Task\n") and "Decide step" in user
        # The images are the screenshots as sent: the current one is this step's step_NNN.png.
        for rel in row["images"]:
            assert (out / rel).is_file()
        (n,) = origin["steps"]
        step = steps_of(run_dir, origin["folder"])[n]
        assert (out / row["images"][-1]).read_bytes() == (
            run_dir / origin["folder"] / step["screenshot"]
        ).read_bytes()
        reply = row["messages"][2]["content"]
        assert reply == step["cleaned_reply"]
        assert parses_back(reply, step["action"], parser_specs(run_dir, origin["folder"]))
        # The TRL file holds the same conversation as typed parts, an image part per image.
        parts = trl_row["messages"][1]["content"]
        assert sum(1 for p in parts if p["type"] == "image") == len(row["images"])
        assert trl_row["messages"][2]["content"][0]["text"] == reply
    # As TRL's recipe reads them (docs/export.md): the paths joined to OUT, cast to images.
    seq = getattr(datasets, "List", None) or datasets.Sequence
    decoded = trl.map(lambda r: {"images": [str(out / p) for p in r["images"]]}).cast_column(
        "images", seq(datasets.Image())
    )
    assert decoded[0]["images"][-1].size == (1440, 810)
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["coordinates"]["convention"] == "pixels" and meta["coordinates"]["image_sizes"] == [
        [1440, 810]
    ]
    info = json.loads((out / "dataset_info.json").read_text())
    assert (
        info["webfovea_sft"]["file_name"] == "sft.jsonl"
        and info["webfovea_sft"]["columns"]["images"] == "images"
    )

    # --verdict pass (the default) keeps only the task the site's truth passed.
    passed = tmp_path / "passed"
    export_training([run_dir], passed, TrainingOptions())
    assert {p["passed"] for p in lines(passed / "provenance.jsonl")} == {True}
    assert len(lines(passed / "sft.jsonl")) == sum(1 for p in prov if p["passed"])


def test_uitars_grammar_and_episodes(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "uitars"
    summary = export_training([run_dir], out, TrainingOptions(grammar="uitars", per="episode"))
    (row,) = lines(out / "sft.jsonl")  # the passed task; its first step (select) has no UI-TARS action
    assert summary.left_out_steps == 1
    (origin,) = lines(out / "provenance.jsonl")
    steps = steps_of(run_dir, origin["folder"])
    replies = [m["content"] for m in row["messages"] if m["role"] == "assistant"]
    assert len(replies) == len(origin["steps"]) == len(steps) - 1
    assert "<point>" in replies[0] and "start_box" not in "".join(replies)
    specs = parser_specs(run_dir, origin["folder"])
    for reply, n in zip(replies, origin["steps"], strict=True):
        assert parses_back(reply, steps[n]["action"], specs)  # our parser reads UI-TARS-1.5's points
    assert sum(m["content"].count("<image>") for m in row["messages"]) == len(row["images"])
    assert datasets.load_dataset("json", data_files=str(out / "sft.jsonl"), split="train").num_rows == 1


def _split(run_dir: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The fixture's two tasks as two runs: the clean one passed, the fault one failed."""
    runs = []
    for i, folder in enumerate(sorted(p for p in run_dir.iterdir() if (p / "result.json").exists())):
        run = tmp_path / f"run{i}"
        run.mkdir()
        shutil.copytree(folder, run / folder.name)
        runs.append(run)
    return runs[0], runs[1]


def test_dpo_pairs_the_first_diverging_step(run_dir: Path, tmp_path: Path) -> None:
    passed, failed = _split(run_dir, tmp_path)
    out = tmp_path / "dpo"
    summary = export_training([passed, failed], out, TrainingOptions(fmt="dpo"))
    assert summary.records == 1
    (row,) = lines(out / "dpo.jsonl")
    (origin,) = lines(out / "provenance.jsonl")
    assert origin["chosen"]["passed"] is True and origin["rejected"]["passed"] is False
    # The trajectories act alike (points a few pixels apart) until the answer.
    assert "finished(content='-1.1')" in row["chosen"]["content"]
    assert "finished(content='-0.2')" in row["rejected"]["content"]
    assert origin["step"] == 8 and row["messages"][1]["content"].count("<image>") == len(row["images"])
    trl = datasets.load_dataset("json", data_files=str(out / "dpo_trl.jsonl"), split="train")
    assert trl.column_names == ["prompt", "chosen", "rejected", "images"] and trl.num_rows == 1
    assert all((out / rel).is_file() for rel in row["images"])
    assert json.loads((out / "dataset_info.json").read_text())["webfovea_dpo"]["ranking"] is True


def test_duplicates_links_out_and_bad_input(run_dir: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    clean = next(p for p in run.iterdir() if (p / "result.json").exists() and "--v" not in p.name)
    shutil.copytree(clean, run / "zz-again")  # the same trajectory twice: its records once
    outside = tmp_path / "private.png"
    outside.write_bytes((clean / "step_000.png").read_bytes())
    fault = next(p for p in run.iterdir() if "--v" in p.name)
    (fault / "step_002.png").unlink()
    (fault / "step_002.png").symlink_to(outside)  # a link out of the run: not read
    summary = export_training([run], tmp_path / "o", TrainingOptions(verdict="any"))
    assert summary.duplicates == len(steps_of(run, clean.name))
    assert summary.skipped == {f"run/{fault.name}": "step_002.png: a link out of its folder; not read"}
    assert {p["folder"] for p in lines(tmp_path / "o" / "provenance.jsonl")} == {clean.name}

    # OUT not empty: refused; --force replaces an earlier export, never another folder.
    with pytest.raises(ExportError, match="not empty"):
        export_training([run], tmp_path / "o", TrainingOptions())
    export_training([run], tmp_path / "o", TrainingOptions(force=True))
    assert {p["passed"] for p in lines(tmp_path / "o" / "provenance.jsonl")} == {True}
    with pytest.raises(ExportError, match="not a training export"):
        export_training([run], clean, TrainingOptions(force=True))

    # No verdict anywhere: no truth, no summary.
    for folder in (p for p in run.iterdir() if (p / "result.json").exists()):
        result = json.loads((folder / "result.json").read_text())
        result["truth"] = None
        (folder / "result.json").write_text(json.dumps(result))
    (run / "summary.json").unlink()
    res = cli("export", str(run), str(tmp_path / "o2"), "--format", "sft")
    assert res.returncode == 2 and "no judged tasks" in " ".join(res.stderr.split())
    with pytest.raises(ExportError, match="has no verdicts of naveval"):
        export_training([run], tmp_path / "o3", TrainingOptions(judge="naveval"))
    assert not (tmp_path / "o2").exists() and not list(tmp_path.glob(".o*.partial-*"))


def test_judge_picks_whose_verdicts(run_dir: Path, tmp_path: Path) -> None:
    """`--judge rule` takes the rule judge's records (RUN/judges/rule/): it cannot see the wrong
    row, so both tasks pass and both are exported, where the site's truth passed one."""
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    judge_run(run, JudgeOptions(method="rule", out_dir=run / "judges" / "rule"))
    summary = export_training([run], tmp_path / "o", TrainingOptions(judge="rule"))
    prov = lines(tmp_path / "o" / "provenance.jsonl")
    assert summary.verdicts == {"passed": 2} and {p["verdict_source"] for p in prov} == {"judge:rule"}
    assert len({p["folder"] for p in prov}) == 2


def test_a_native_tool_call_is_written_in_the_text_grammar(run_dir: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    folder = next(p for p in run.iterdir() if (p / "result.json").exists() and "--v" not in p.name)
    steps = lines(folder / "trajectory.jsonl")
    call = {"id": "c1", "name": "computer", "input": {"action": "left_click", "coordinate": [1309, 251]}}
    steps[1].update(tool_calls=[call], cleaned_reply="[tool_use computer {...}]")
    (folder / "trajectory.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    export_training([run], tmp_path / "o", TrainingOptions())
    row = lines(tmp_path / "o" / "sft.jsonl")[1]
    reply = row["messages"][2]["content"]
    assert (
        reply
        == f"Thought: {steps[1]['thought']}\nAction: click(start_box='<|box_start|>(1309,251)<|box_end|>')"
    )
    assert parses_back(reply, steps[1]["action"], parser_specs(run, folder.name))


def test_a_task_nothing_judged_is_never_exported(run_dir: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    fault = next(p for p in run.iterdir() if "--v" in p.name)
    result = json.loads((fault / "result.json").read_text())
    (fault / "result.json").write_text(json.dumps({**result, "truth": None}))
    summary_json = json.loads((run / "summary.json").read_text())
    del summary_json["per_task"][result["task_id"]]
    (run / "summary.json").write_text(json.dumps(summary_json))
    summary = export_training([run], tmp_path / "o", TrainingOptions(verdict="any"))
    assert summary.verdicts == {"passed": 1, "none": 1}
    assert {p["folder"] for p in lines(tmp_path / "o" / "provenance.jsonl")} == {
        p.name for p in run.iterdir() if (p / "result.json").exists() and p != fault
    }
