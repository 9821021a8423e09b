"""History compression on a long task: a real HTTP model client, a fake model server on loopback,
real Chromium. A small context budget makes it fire; the summary is written by the task's model
in a separate call, the task and the last messages survive, and the model is shown the summary."""

from __future__ import annotations

import json

import pytest

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.observation.compress import REFRESH_NOTE, SUMMARY_CLOSING, SUMMARY_SYSTEM, clean_summary
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<html><body style="margin:0"><div id=n style="font-size:40px">0</div>
<button style="position:absolute;left:40px;top:200px;width:300px;height:100px"
 onclick="document.getElementById('n').textContent = +document.getElementById('n').textContent + 1">more</button>
</body></html>"""
TASK = "Press the button four times, then report the counter. UNIQUE-TASK-MARK"
# Each reply carries ~2,000 tokens of thought, so four of them (not three) pass 75% of a 14,000-token
# budget beside the prompt, the tool schemas and one screenshot (~4,000 tokens).
PAD = "I keep pressing the button and counting carefully. " * 160


def step_reply(i: int) -> str:
    return f"Thought: MARK-{i} {PAD}\nAction: click(start_box='<|box_start|>(140,187)<|box_end|>')"


SUMMARY = (
    "Objective: press the button four times.\nCompleted operations: pressed it three times.\n"
    "Current page state: counter shows 3.\nKey information: counter=3.\nRemaining steps: press once, "
    "then answer. SUMMARY-MARK"
)
FINISH = "Thought: The counter shows 5.\nAction: finished(content='5')"


def user_text(body: dict) -> str:
    content = body["messages"][1]["content"]
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


def config():
    return make_config(context_tokens=14_000, screenshot_window=1)


async def run(tmp_path, script, name, session):
    with serve_pages({"/": PAGE}) as site, fake_llm(script) as llm:
        task = Task(task_id=name, task=TASK, website=site.url("/"))
        result = await run_task(
            task,
            tmp_path / name,
            model="openai:test-model",
            config=config(),
            base_url=llm.base_url,
            session=session,
            capture=False,
            model_options={"max_attempts": 1},
        )
    steps = [json.loads(line) for line in (tmp_path / name / "trajectory.jsonl").read_text().splitlines()]
    return result, steps, [r.body for r in llm.received]


async def test_summary_replaces_older_turns_and_keeps_task_and_last_message(tmp_path, session):
    script = [openai_ok(step_reply(i), 100, 10) for i in range(4)]
    script += [openai_ok(SUMMARY, 900, 60), openai_ok(step_reply(4)), openai_ok(FINISH)]
    result, steps, bodies = await run(tmp_path, script, "long", session)
    assert result.status == "finished" and result.answer == "5"
    assert result.usage.model_calls == 7  # six steps and one summary call

    summary_call = bodies[4]
    assert summary_call["messages"][0]["content"] == SUMMARY_SYSTEM
    text = user_text(summary_call)
    assert "UNIQUE-TASK-MARK" in text
    assert all(f"MARK-{i} " in text for i in range(3)) and "MARK-3 " not in text  # the older turns only
    assert text.rstrip().endswith(SUMMARY_CLOSING)

    after = user_text(bodies[5])
    assert "UNIQUE-TASK-MARK" in after  # the task survives
    assert "SUMMARY-MARK" in after and "## Summary of your earlier steps (steps 1-3)" in after
    assert "Step 4:\n" + f"Thought: MARK-3 {PAD}".strip() in after  # the last message verbatim, numbered
    assert not any(f"MARK-{i} " in after for i in range(3))  # the summarised turns are gone

    event = steps[4]["compression"]
    assert event["status"] == "summarised" and event["raw_reply"] == SUMMARY
    assert (event["summarised"], event["kept"], event["messages_before"]) == (3, 1, 4)
    assert event["tokens_before"] >= 10_500 > event["tokens_after"]
    assert event["usage"] == {"prompt_tokens": 900, "completion_tokens": 60}
    assert all(s["compression"] is None for i, s in enumerate(steps) if i != 4)


async def test_failed_summary_keeps_recent_messages_task_and_a_refresh_note(tmp_path, session):
    script = [openai_ok(step_reply(i)) for i in range(4)]
    script += [openai_ok("   "), openai_ok(step_reply(4)), openai_ok(FINISH)]  # an empty summary
    result, steps, bodies = await run(tmp_path, script, "fallback", session)
    assert result.status == "finished" and result.answer == "5"
    after = user_text(bodies[5])
    assert "UNIQUE-TASK-MARK" in after and REFRESH_NOTE in after
    assert "MARK-3 " in after and "MARK-0 " not in after
    event = steps[4]["compression"]
    assert event["status"] == "fallback" and "empty" in event["error"] and event["kept"] >= 1


async def test_replay_replays_the_recorded_summary(tmp_path, session):
    script = [openai_ok(step_reply(i)) for i in range(4)]
    script += [openai_ok(SUMMARY), openai_ok(step_reply(4)), openai_ok(FINISH)]
    await run(tmp_path, script, "orig", session)
    with serve_pages({"/": PAGE}) as site:
        task = Task(task_id="orig", task=TASK, website=site.url("/"))
        result = await run_task(
            task,
            tmp_path / "replayed",
            model=f"replay:{tmp_path / 'orig'}",
            config=config(),
            session=session,
            capture=False,
        )
    assert result.status == "finished" and result.answer == "5"
    steps = [
        json.loads(line) for line in (tmp_path / "replayed" / "trajectory.jsonl").read_text().splitlines()
    ]
    assert (
        steps[4]["compression"]["status"] == "summarised" and steps[4]["compression"]["raw_reply"] == SUMMARY
    )


async def test_summary_is_cut_to_6000_characters_and_stubs_are_refused():
    assert clean_summary("") is None and clean_summary("ok") is None
    long = "\n".join(f"line {i} " + "x" * 90 for i in range(200))
    cut = clean_summary(long)
    assert cut is not None and len(cut) <= 6000 and cut.startswith("line 0 ")
