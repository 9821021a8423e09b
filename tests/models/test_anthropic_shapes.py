"""Every Messages API reply shape, end to end: `run_task` with the real Anthropic client, a loopback
server answering with the SDK's own classes (and rejecting requests its request type rejects),
real Chromium on a loopback page. Each test asserts what reached the page and what the next
request carried."""

from __future__ import annotations

import pytest

from tests.models.fake_llm import Answer, fake_llm
from tests.models.shape_support import GO_CSS, NAME_CSS, PAGES, point, read, values
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.task import Task
from webfovea_proving_ground.providers.sdk_replies import (
    anthropic_message,
    redacted_thinking_block,
    text_block,
    thinking_block,
    tool_use_block,
)

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

MODEL = "claude-sonnet-4-6"
NAME, GO = point(MODEL, NAME_CSS), point(MODEL, GO_CSS)


def msg(*blocks: dict, stop_reason: str | None = None) -> Answer:
    return Answer(200, anthropic_message(*blocks, stop_reason=stop_reason))


def fill(content: str, block_id: str | None = None) -> dict:
    return tool_use_block("fill", {"start_box": NAME, "content": content}, block_id)


def click(block_id: str | None = None) -> dict:
    return tool_use_block("click", {"start_box": GO}, block_id)


def finished(answer: str = "done") -> dict:
    return tool_use_block("finished", {"content": answer})


async def _run(session, tmp_path, script, spec: str = f"anthropic:{MODEL}", **config):
    with serve_pages(PAGES) as site, fake_llm(script) as llm:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        await run_task(
            task,
            tmp_path / "t",
            session=session,
            model=spec,
            # The server replies from a fixed list: no verifier call or OCR hold to spend a reply on.
            config=make_config(**{"disable": ["verifier", "ocr_check"], **config}),
            base_url=llm.base_url,
            model_options={"budget_s": 20, "base_delay_s": 0.05},
        )
    result, steps = read(tmp_path / "t")
    return result, steps, site.log, [r.body for r in llm.received]


async def test_tool_only_replies_are_executed(session, tmp_path):
    script = [msg(fill("Ada Lovelace", "toolu_a")), msg(click("toolu_b")), msg(finished())]
    result, steps, log, bodies = await _run(session, tmp_path, script)
    assert result["status"] == "finished" and result["steps"] == 3
    assert values(log, "/saved") == ["Ada Lovelace"]  # the page really got the name, then the press
    assert [s["outcome"] for s in steps] == ["executed"] * 3
    answered = bodies[1]["messages"][-1]["content"][0]
    assert answered["type"] == "tool_result" and answered["tool_use_id"] == "toolu_a"
    assert "is_error" not in answered  # it ran: no "Done." for a call that never did


async def test_a_cut_off_tool_call_is_never_typed_and_is_asked_again_with_room(session, tmp_path):
    script = [
        msg(text_block("I type the name."), fill("Ada Lov", "toolu_cut"), stop_reason="max_tokens"),
        msg(finished("gave up")),
    ]
    result, steps, log, bodies = await _run(session, tmp_path, script)
    assert values(log, "/typed") == []  # not one character of the half-written value reached the page
    assert steps[0]["outcome"] == "rejected" and "cut off" in steps[0]["rejection"]
    assert "stop_reason=max_tokens" in steps[0]["rejection"]
    told = bodies[1]["messages"][-1]["content"][0]
    assert told["tool_use_id"] == "toolu_cut" and told["is_error"] is True
    assert "cut off" in str(told["content"])
    assert bodies[1]["max_tokens"] == 2 * bodies[0]["max_tokens"]  # asked again with room
    assert result["status"] == "finished"


async def test_cut_off_replies_in_a_row_end_the_task_as_a_model_error(session, tmp_path):
    cut = msg(fill("Ada"), stop_reason="max_tokens")
    result, steps, log, bodies = await _run(session, tmp_path, [cut, cut, cut, cut])
    assert result["status"] == "model_error" and "cut off 4 times in a row" in result["error"]
    assert values(log, "/typed") == [] and len(steps) == 3
    assert [b["max_tokens"] for b in bodies] == [1024, 2048, 4096, 4096]  # room grows, bounded


async def test_thinking_blocks_go_back_unchanged_and_in_order(session, tmp_path):
    thought = thinking_block("The input is at the top; fill it first.", signature="sig-abc")
    hidden = redacted_thinking_block("opaque-bytes")
    script = [
        msg(thought, hidden, text_block("Filling."), fill("Ada Lovelace", "toolu_1")),
        msg(thinking_block("Now save.", signature="sig-def"), click("toolu_2")),
        msg(finished()),
    ]
    spec = f"anthropic:{MODEL}?thinking=2048"
    result, steps, log, bodies = await _run(session, tmp_path, script, spec)
    assert result["status"] == "finished" and values(log, "/saved") == ["Ada Lovelace"]
    assert bodies[0]["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert bodies[0]["max_tokens"] == 1024 + 2048  # the budget comes on top of the reply's room
    turn = bodies[1]["messages"][1]
    assert turn["role"] == "assistant"
    assert turn["content"][:2] == [thought, hidden]  # signature and data untouched
    assert [b["type"] for b in turn["content"][2:]] == ["text", "tool_use"]
    assert bodies[2]["messages"][3]["content"][0]["signature"] == "sig-def"
    assert not any("Thinking" in s["cleaned_reply"] or "fill it first" in s["raw_reply"] for s in steps)
    assert "thinking: 2 block(s), carried back unchanged" in steps[0]["provider_notes"]


async def test_pause_turn_is_continued_with_the_paused_content(session, tmp_path):
    paused = text_block("Let me look at the form first.")
    script = [msg(paused, stop_reason="pause_turn"), msg(fill("Ada Lovelace")), msg(finished())]
    result, steps, log, bodies = await _run(session, tmp_path, script)
    assert values(log, "/typed")[-1] == "Ada Lovelace" and result["status"] == "finished"
    assert bodies[1]["messages"][:-1] == bodies[0]["messages"]
    assert bodies[1]["messages"][-1] == {"role": "assistant", "content": [paused]}
    assert steps[0]["outcome"] == "executed"
    assert "Could not find an Action" not in (steps[0]["feedback"] or "")


async def test_refusal_is_noted_and_runs_nothing(session, tmp_path):
    script = [msg(text_block("I can't help with that."), stop_reason="refusal"), msg(finished("no"))]
    result, steps, log, bodies = await _run(session, tmp_path, script)
    assert values(log, "/typed") == [] and steps[0]["outcome"] == "rejected"
    assert any("refusal" in n for n in steps[0]["provider_notes"])
    assert result["status"] == "finished"


async def test_two_calls_in_one_reply_run_the_first_and_answer_the_second(session, tmp_path):
    script = [msg(fill("Ada Lovelace", "toolu_f"), click("toolu_c")), msg(finished())]
    result, steps, log, bodies = await _run(session, tmp_path, script)
    assert values(log, "/typed")[-1] == "Ada Lovelace" and values(log, "/saved") == []
    first, second = bodies[1]["messages"][-1]["content"][:2]
    assert (first["tool_use_id"], second["tool_use_id"]) == ("toolu_f", "toolu_c")
    assert second["is_error"] is True and "Not executed" in second["content"]


async def test_text_interface_and_an_empty_content_list(session, tmp_path):
    fill_text = f"Thought: type it\nAction: fill(start_box='({NAME[0]},{NAME[1]})', content='Ada Lovelace')"
    script = [msg(), msg(text_block(fill_text)), msg(text_block("Action: finished(content='ok')"))]
    spec = f"anthropic:{MODEL}?interface=text"
    result, steps, log, bodies = await _run(session, tmp_path, script, spec)
    assert values(log, "/typed")[-1] == "Ada Lovelace" and result["status"] == "finished"
    assert "tools" not in bodies[0] and len(bodies) == 3  # the empty reply was asked again


async def test_a_replay_withholds_the_cut_off_reply_too(session, tmp_path):
    script = [msg(fill("Ada Lov"), stop_reason="max_tokens"), msg(finished("gave up"))]
    _, steps, _, _ = await _run(session, tmp_path, script)
    assert "cut off: stop_reason=max_tokens" in steps[0]["provider_notes"]
    with serve_pages(PAGES) as site:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        res = await run_task(
            task, tmp_path / "again", session=session, model=f"replay:{tmp_path / 't'}", config=make_config()
        )
    _, again = read(tmp_path / "again")
    assert values(site.log, "/typed") == [] and again[0]["outcome"] == "rejected"
    assert res.status == "finished"


async def test_computer_tool_calls_alone_click_and_a_cut_off_type_is_never_typed(session, tmp_path):
    computer = f"anthropic:{MODEL}?interface=computer"
    script = [
        msg(tool_use_block("computer", {"action": "left_click", "coordinate": NAME}, "toolu_focus")),
        msg(tool_use_block("computer", {"action": "type", "text": "Ada Lov"}), stop_reason="max_tokens"),
        msg(tool_use_block("computer", {"action": "left_click", "coordinate": GO})),
        msg(finished()),
    ]
    result, steps, log, bodies = await _run(session, tmp_path, script, computer)
    assert result["status"] == "finished"
    assert values(log, "/typed") == [] and values(log, "/saved") == [""]  # clicked; never typed
    assert [s["outcome"] for s in steps[:3]] == ["executed", "rejected", "executed"]
    assert bodies[1]["messages"][-1]["content"][0]["tool_use_id"] == "toolu_focus"
    assert any(t.get("type") == "computer_20251124" for t in bodies[0]["tools"])
