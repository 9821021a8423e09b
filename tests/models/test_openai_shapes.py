"""Chat Completions and Responses reply shapes, end to end: `run_task` with the real OpenAI clients,
a loopback server answering with the SDK's own classes (and rejecting requests its request types
reject), real Chromium on a loopback page."""

from __future__ import annotations

import pytest

from tests.models.fake_llm import Answer, fake_llm, openai_ok
from tests.models.shape_support import GO_CSS, NAME_CSS, PAGES, point, read, values
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.task import Task
from webfovea_proving_ground.providers.sdk_replies import (
    chat_tool_call,
    computer_call,
    function_call,
    output_message,
    reasoning_item,
    responses_response,
)

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

CHAT, CUA = "gpt-4o", "computer-use-preview"


def fill_text(content: str) -> str:
    x, y = point(CHAT, NAME_CSS)
    return f"Thought: type the name\nAction: fill(start_box='({x},{y})', content='{content}')"


FINISH = "Thought: done\nAction: finished(content='done')"


async def _run(session, tmp_path, script, model: str):
    with serve_pages(PAGES) as site, fake_llm(script) as llm:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        await run_task(
            task,
            tmp_path / "t",
            session=session,
            model=f"openai:{model}",
            # The server replies from a fixed list: no verifier call to spend (or fail) on it.
            config=make_config(disable=["verifier"]),
            base_url=llm.base_url,
            model_options={"budget_s": 20, "base_delay_s": 0.05},
        )
    result, steps = read(tmp_path / "t")
    return result, steps, site.log, [r.body for r in llm.received]


async def test_chat_cut_off_at_length_is_never_typed(session, tmp_path):
    script = [openai_ok(fill_text("Ada Lov"), finish_reason="length"), openai_ok(FINISH)]
    result, steps, log, bodies = await _run(session, tmp_path, script, CHAT)
    assert values(log, "/typed") == []  # the half-written value never reached the page
    assert steps[0]["outcome"] == "rejected" and "finish_reason=length" in steps[0]["rejection"]
    assert bodies[1]["max_tokens"] == 2 * bodies[0]["max_tokens"]
    assert "cut off" in bodies[1]["messages"][1]["content"][0]["text"]  # the model is told
    assert result["status"] == "finished"


async def test_chat_content_filter_is_not_executed(session, tmp_path):
    script = [openai_ok(fill_text("Ada"), finish_reason="content_filter"), openai_ok(FINISH)]
    result, steps, log, _ = await _run(session, tmp_path, script, CHAT)
    assert values(log, "/typed") == [] and "content_filter" in steps[0]["rejection"]


async def test_chat_tool_calls_without_text_are_executed(session, tmp_path):
    calls = [chat_tool_call("fill", {"start_box": point(CHAT, NAME_CSS), "content": "Ada Lovelace"})]
    click = [chat_tool_call("click", {"start_box": point(CHAT, GO_CSS)})]
    script = [openai_ok(None, tool_calls=calls), openai_ok(None, tool_calls=click), openai_ok(FINISH)]
    result, steps, log, _ = await _run(session, tmp_path, script, CHAT)
    assert values(log, "/saved") == ["Ada Lovelace"] and result["status"] == "finished"
    assert steps[0]["tool_calls"][0]["name"] == "fill"


async def test_chat_refusal_runs_nothing_and_is_noted(session, tmp_path):
    script = [openai_ok(None, refusal="I can't help with that."), openai_ok(FINISH)]
    result, steps, log, _ = await _run(session, tmp_path, script, CHAT)
    assert values(log, "/typed") == [] and steps[0]["outcome"] == "rejected"
    assert steps[0]["provider_notes"] == ["refusal: I can't help with that."]


def response(*items: dict, **kw) -> Answer:
    return Answer(200, responses_response(*items, **kw))


async def test_responses_computer_call_without_a_message_clicks(session, tmp_path):
    x, y = point(CUA, GO_CSS)
    script = [
        response(reasoning_item("the Save button"), computer_call("c1", {"type": "click", "x": x, "y": y, "button": "left"}, legacy=True), response_id="r1"),
        response(function_call("f1", "finished", {"content": "done"}), output_message("Done."), response_id="r2"),
    ]  # fmt: skip
    result, steps, log, bodies = await _run(session, tmp_path, script, CUA)
    assert values(log, "/saved") == [""]  # the click really pressed Save
    assert steps[0]["outcome"] == "executed" and result["status"] == "finished"
    second = bodies[1]
    assert second["previous_response_id"] == "r1"  # reasoning items ride on the chained response
    (out,) = [i for i in second["input"] if i.get("type") == "computer_call_output"]
    assert out["call_id"] == "c1" and out["output"]["type"] == "computer_screenshot"
    functions = [t for t in bodies[0]["tools"] if t["type"] == "function"]
    assert functions and all(t["strict"] is False for t in functions)
    images = [p for i in bodies[0]["input"] if i.get("role") == "user" for p in i["content"]]
    assert all(p["detail"] == "high" for p in images if p["type"] == "input_image")


async def test_responses_incomplete_call_is_never_typed(session, tmp_path):
    args = {"start_box": point(CUA, NAME_CSS), "content": "Ada Lov"}
    script = [
        response(function_call("f1", "fill", args), incomplete="max_output_tokens", response_id="r1"),
        response(function_call("f2", "finished", {"content": "no"}), response_id="r2"),
    ]
    result, steps, log, bodies = await _run(session, tmp_path, script, CUA)
    assert values(log, "/typed") == []
    assert "status=incomplete (max_output_tokens)" in steps[0]["rejection"]
    (out,) = [i for i in bodies[1]["input"] if i.get("type") == "function_call_output"]
    assert out["call_id"] == "f1" and "cut off" in out["output"]
    assert bodies[1]["max_output_tokens"] == 2 * bodies[0]["max_output_tokens"]
