"""ReplayModel reads a real trajectory.jsonl written from StepRecords."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.models.inputs import make_input
from webfovea.models.base import ModelError
from webfovea.models.conventions import conventions_for
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.factory import make_model
from webfovea.models.replay import ReplayModel
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.task import Task

REPLIES = [
    "Thought: open it\nAction: click(start_box='<|box_start|>(100,200)<|box_end|>')<|im_end|>",
    "Thought: choose\nAction: select(start_box='(10,10)', option='Viet Nam')",
    "Thought: done\nAction: finished(content='97,338,579')",
]


def write_task(
    folder: Path, replies: list[str] = REPLIES, model: str | None = "openai:ui-tars-1.5-7b"
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        StepRecord(
            step=i,
            raw_reply=r,
            cleaned_reply=r,
            usage={"prompt_tokens": 1000 + i, "completion_tokens": 10 + i},
        ).model_dump_json()
        for i, r in enumerate(replies)
    ]
    (folder / "trajectory.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if model:
        (folder / "result.json").write_text(
            TaskResult(task_id=folder.name, status="finished", model=model).model_dump_json()
        )
    return folder / "trajectory.jsonl"


async def test_replies_in_order_then_exhausted(tmp_path):
    path = write_task(tmp_path / "t1")
    model = ReplayModel(path)
    got = [await model.next_reply(make_input(1)) for _ in REPLIES]
    assert [r.text for r in got] == REPLIES
    assert [(r.usage.prompt_tokens, r.usage.completion_tokens) for r in got] == [
        (1000, 10),
        (1001, 11),
        (1002, 12),
    ]
    assert model.source_model == "openai:ui-tars-1.5-7b"
    with pytest.raises(ModelError, match="replay exhausted after 3 replies"):
        await model.next_reply(make_input(1))
    await model.aclose()


async def test_task_folder_and_run_folder(tmp_path):
    write_task(tmp_path / "run" / "a", REPLIES[:1])
    write_task(tmp_path / "run" / "b", REPLIES[1:])
    by_task_folder = ReplayModel(tmp_path / "run" / "b")
    assert [r.text for r in by_task_folder.replies] == REPLIES[1:]
    by_run = ReplayModel(tmp_path / "run", task_id="a")
    assert (await by_run.next_reply(make_input(1))).text == REPLIES[0]
    with pytest.raises(ModelConfigError, match="run folder with 2 tasks"):
        ReplayModel(tmp_path / "run")
    with pytest.raises(ModelConfigError, match="no trajectory.jsonl for task 'zzz'"):
        ReplayModel(tmp_path / "run", task_id="zzz")


async def test_make_model_replay_picks_the_task(tmp_path):
    write_task(tmp_path / "run" / "a", REPLIES[:1])
    write_task(tmp_path / "run" / "b", REPLIES[1:2])
    task = Task(task_id="b", task="t", website="http://x")
    model = make_model(f"replay:{tmp_path / 'run'}", task=task)
    assert isinstance(model, ReplayModel)
    assert (await model.next_reply(make_input(1))).text == REPLIES[1]


def test_missing_and_corrupt_files(tmp_path):
    with pytest.raises(ModelConfigError, match="does not exist"):
        ReplayModel(tmp_path / "nope")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ModelConfigError, match="holds no trajectory.jsonl"):
        ReplayModel(empty)
    path = write_task(tmp_path / "bad")
    path.write_text(path.read_text() + '{"step": 3, "raw_rep\n')
    with pytest.raises(ModelConfigError, match=r"line 4 is not valid JSON"):
        ReplayModel(path)
    path.write_text(json.dumps({"step": 0, "thought": "no reply here"}) + "\n")
    with pytest.raises(ModelConfigError, match=r"line 1 has no raw_reply"):
        ReplayModel(path)


async def test_legacy_record_without_usage_and_no_result_json(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "trajectory.jsonl").write_text(json.dumps({"step": 0, "raw_reply": "Action: wait()"}) + "\n\n")
    model = ReplayModel(folder)
    reply = await model.next_reply(make_input(1))
    assert reply.text == "Action: wait()" and reply.usage.prompt_tokens == 0
    assert model.source_model is None


def test_replay_spec_uses_the_recorded_models_conventions(tmp_path):
    write_task(tmp_path / "run" / "a", model="openai:ui-tars-72b-dpo")
    write_task(tmp_path / "run" / "b", model="openai:ui-tars-72b-dpo")
    for target in ("run", "run/a", "run/a/trajectory.jsonl"):
        row = conventions_for(f"replay:{tmp_path / target}")
        assert (row.family, row.coordinate_space) == ("ui-tars", "norm1000")
    write_task(tmp_path / "plain", model=None)
    assert conventions_for(f"replay:{tmp_path / 'plain'}").family == "default"
    assert conventions_for(f"replay:{tmp_path / 'missing'}").family == "default"


async def test_tool_call_steps_replay_their_calls(tmp_path):
    calls = [
        {"id": "toolu_1", "name": "fill", "input": {"start_box": [1, 2], "content": "x"}},
        {"id": "toolu_2", "name": "click", "input": {"start_box": [3, 4]}},
    ]
    rec = StepRecord(
        step=0,
        raw_reply='I fill it.\n[tool_use fill {"start_box": [1, 2]}]',
        thought="I fill it.",
        tool_calls=calls,
        usage={"prompt_tokens": 5, "completion_tokens": 1},
    )
    (tmp_path / "trajectory.jsonl").write_text(rec.model_dump_json() + "\n")
    model = ReplayModel(tmp_path / "trajectory.jsonl")
    reply = await model.next_reply(make_input())
    assert reply.text == "I fill it."
    assert [(c.id, c.name, c.input) for c in reply.tool_calls] == [
        (c["id"], c["name"], c["input"]) for c in calls
    ]


async def test_replay_answers_look_and_locate_calls_from_the_step_records(tmp_path):
    import json as _json

    from webfovea.models.base import ModelInput
    from webfovea.models.replay import ReplayModel

    rec = {
        "step": 0,
        "raw_reply": "Thought: t\nAction: locate(description='x')",
        "usage": {},
        "vision": [{"purpose": "locate", "raw_reply": "Point: (10, 20)", "usage": {"prompt_tokens": 7}}],
    }
    (tmp_path / "trajectory.jsonl").write_text(_json.dumps(rec) + "\n")
    model = ReplayModel(tmp_path / "trajectory.jsonl")
    ask = ModelInput(
        system="s",
        task="Locate this element: x",
        history=[],
        images=[],
        feedback=None,
        step=0,
        purpose="locate",
    )
    answer = await model.next_reply(ask)
    assert answer.text == "Point: (10, 20)" and answer.usage.prompt_tokens == 7
    step = await model.next_reply(
        ModelInput(system="s", task="t", history=[], images=[], feedback=None, step=0)
    )
    assert "locate(" in step.text  # the step replies are replayed apart from the vision calls
