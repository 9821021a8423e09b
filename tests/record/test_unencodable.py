"""A string UTF-8 cannot hold (a lone UTF-16 surrogate the page put in its title or text)
never breaks a record: the step is written with U+FFFD in its place and says how many."""

from __future__ import annotations

import json

import pytest

from tests.support.scripted import ScriptedModel as Scripted
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record.atomic import json_text, write_json_atomic
from webfovea.record.files import append_step, read_result, read_trajectory, write_result
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.task import Task

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
ASYNC = pytest.mark.asyncio(loop_scope="session")

PAGE = """<html><head><title>x</title></head><body style="margin:0">
<button id=b style="position:absolute;left:50px;top:50px;width:200px;height:60px"
  onclick="document.title = 'Saved \\uD800 now'; this.textContent = 'done \\uDC00' + String.fromCharCode(0xD83D)">
  Save</button>
<script>document.title = 'lone \\uD83D title';</script></body></html>"""


@ASYNC
async def test_a_lone_surrogate_in_the_page_leaves_every_step_recorded(session, tmp_path):
    click = "Thought: t\nAction: click(start_box='<|box_start|>(150,80)<|box_end|>')"
    with serve_pages({"/": PAGE}) as site:
        task = Task(task_id="s", task="save", website=site.url("/"))
        res = await run_task(
            task,
            tmp_path / "s",
            session=session,
            model=Scripted([click, "Thought: t\nAction: finished(content='ok \ud800')"]),
            config=make_config(),
        )
    assert res.status == "finished", res.error
    steps = read_trajectory(tmp_path / "s")
    assert [s.step for s in steps] == [0, 1]
    raw = (tmp_path / "s" / "trajectory.jsonl").read_bytes()
    raw.decode("utf-8")  # strict: every line is valid UTF-8
    # The page's title change reached the record, repaired and counted.
    assert "\ufffd" in raw.decode("utf-8")
    assert any((s.replaced_characters or 0) > 0 for s in steps)
    result = read_result(tmp_path / "s")
    assert result is not None and result.answer == "ok \ufffd" and result.replaced_characters == 1


def test_records_with_lone_surrogates_are_written_and_counted(tmp_path):
    rec = StepRecord(step=0, raw_reply="a\ud800b", feedback="title 'x\udfff'", usage={})
    append_step(tmp_path, rec)
    (line,) = read_trajectory(tmp_path)
    assert line.raw_reply == "a\ufffdb" and line.feedback == "title 'x\ufffd'"
    assert line.replaced_characters == 2
    write_result(tmp_path, TaskResult(task_id="t", status="error", error="boom \ud800"))
    result = read_result(tmp_path)
    assert result is not None and result.error == "boom \ufffd" and result.replaced_characters == 1
    # A split pair in a Python string is joined back, not lost.
    assert json.loads(json_text({"k": "\ud83d\ude00"})) == {"k": "\U0001f600"}
    # Keys too, in any JSON file written through the record writer.
    write_json_atomic(tmp_path / "x.json", {"\udc00": ["\ud800"]})
    assert json.loads((tmp_path / "x.json").read_text(encoding="utf-8")) == {"\ufffd": ["\ufffd"]}


def test_a_clean_record_is_unchanged(tmp_path):
    rec = StepRecord(step=0, raw_reply="plain é 😀", usage={})
    append_step(tmp_path, rec)
    text = (tmp_path / "trajectory.jsonl").read_text(encoding="utf-8")
    assert text == rec.model_dump_json() + "\n" and "replaced_characters" in text
    assert read_trajectory(tmp_path)[0].replaced_characters is None
