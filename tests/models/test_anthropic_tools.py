"""Native tool use through the real Anthropic client, a fake Messages API on loopback and a
real page: the tool call is executed by the harness and its effect is on the page."""

from __future__ import annotations

import pytest

from tests.models.anthropic_shapes import blocks_of, images_of, validate
from tests.models.fake_llm import Answer, fake_llm
from tests.models.inputs import FAST
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.models.anthropic_client import AnthropicModel
from webfovea.models.anthropic_transcript import NOT_EXECUTED, SAME, STUB
from webfovea.models.conventions import conventions_for
from webfovea.models.endpoint import ModelConfigError
from webfovea.observation.sizing import harness_config

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<html><body style="margin:0;font:16px sans-serif">
<input id=q style="position:absolute;left:200px;top:150px;width:300px;height:36px">
<button id=go style="position:absolute;left:600px;top:150px;width:120px;height:36px"
  onclick="document.getElementById('log').textContent='clicked '+document.getElementById('q').value">Go</button>
<div id=log style="position:absolute;left:200px;top:300px">none</div></body></html>"""


def tool_answer(
    *calls: tuple[str, dict], text: str = "", usage: dict | None = None, stop_reason: str = "tool_use"
) -> Answer:
    content = [{"type": "text", "text": text}] if text else []
    content += [
        {"type": "tool_use", "id": f"toolu_{i}_{name}", "name": name, "input": inp}
        for i, (name, inp) in enumerate(calls)
    ]
    return Answer(
        200,
        {
            "id": "msg",
            "type": "message",
            "role": "assistant",
            "content": content,
            "stop_reason": stop_reason,
            "usage": usage
            or {
                "input_tokens": 50,
                "output_tokens": 9,
                "cache_creation_input_tokens": 3000,
                "cache_read_input_tokens": 0,
            },
        },
    )


async def _centre(page, selector):
    box = await page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def _harness(session, url, model_spec):
    page = await session.fresh_page()
    h = await Harness.on_page(page, harness_config(model=model_spec))
    await h.goto(url)
    return h


def _img_point(obs, css):
    return [
        round(css[0] * obs.image.size[0] / obs.shot.css_width),
        round(css[1] * obs.image.size[1] / obs.shot.css_height),
    ]


async def test_our_actions_as_tools_fill_then_click_and_extra_calls_not_executed(session):
    row = conventions_for("claude-sonnet-4-6")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        obs = await h.observe()
        q, go = await _centre(h.page, "#q"), await _centre(h.page, "#go")
        script = [
            # Two calls in one response: only the first runs, the second is answered "not executed".
            tool_answer(
                ("fill", {"start_box": _img_point(obs, q), "content": "hanoi"}),
                ("click", {"start_box": _img_point(obs, go)}),
                text="I type the city first.",
            ),
            tool_answer(("click", {"start_box": _img_point(obs, go)})),
            tool_answer(("finished", {"content": "done"})),
        ]
        with fake_llm(script) as srv:
            model = AnthropicModel("claude-sonnet-4-6", base_url=srv.base_url, retry=FAST)
            assert model.interface == "anthropic_tools"
            for _ in range(3):
                await h.observe()
                reply = await model.next_reply(h.model_input("Search for hanoi"))
                res = await h.step(reply.text, reply.tool_calls)
            await model.aclose()
        assert res.done and res.answer == "done"
        assert await h.page.locator("#log").text_content() == "clicked hanoi"
        assert await h.page.locator("#q").input_value() == "hanoi"
        bodies = [r.body for r in srv.received]
        for r in srv.received:
            validate(r.body, r.headers, row)
        first = bodies[0]
        names = [t["name"] for t in first["tools"]]
        assert names == [s.name for s in h.specs]  # generated from the offered specs, in their order
        fill = next(t for t in first["tools"] if t["name"] == "fill")
        assert fill["input_schema"]["required"] == ["start_box", "content"]
        assert "Thought:" not in first["system"][0]["text"]  # the tool prompt, not the text grammar
        second_user = bodies[1]["messages"][-1]["content"]
        assert second_user[1]["content"] == NOT_EXECUTED and second_user[1]["is_error"]
        assert "hanoi" in second_user[0]["content"]  # the fill read-back is the first call's result
        # History shows the call in the text grammar: the same Action a text reply makes.
        assert h.history.replies[0].startswith("Thought: I type the city first.\nAction: fill(start_box=")


async def test_computer_tool_clicks_with_beta_header_and_display_size(session):
    row = conventions_for("claude-sonnet-4-6")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        obs = await h.observe()
        go = await _centre(h.page, "#go")
        script = [
            tool_answer(("computer", {"action": "left_click", "coordinate": _img_point(obs, go)})),
            tool_answer(("computer", {"action": "triple_click", "coordinate": [1, 1]})),
        ]
        with fake_llm(script) as srv:
            model = AnthropicModel(
                "claude-sonnet-4-6", base_url=srv.base_url, retry=FAST, interface="computer"
            )
            reply = await model.next_reply(h.model_input("Click Go"))
            res = await h.step(reply.text, reply.tool_calls)
            await h.observe()
            reply2 = await model.next_reply(h.model_input("Click Go"))
            res2 = await h.step(reply2.text, reply2.tool_calls)
            await model.aclose()
        assert res.action.name == "click" and res.outcome == "executed"
        assert await h.page.locator("#log").text_content() == "clicked "
        assert res2.outcome == "rejected" and "triple_click" in res2.error
        req = srv.received[0]
        validate(req.body, req.headers, row)
        assert req.headers["anthropic-beta"] == "computer-use-2025-11-24"
        tools = {t["name"]: t for t in req.body["tools"]}
        assert tools["computer"]["type"] == "computer_20251124"
        assert (
            tools["computer"]["display_width_px"],
            tools["computer"]["display_height_px"],
        ) == obs.image.size
        assert "click" not in tools and "fill" in tools and "finished" in tools  # covered ones dropped


async def test_computer_interface_needs_a_row_with_the_tool():
    with pytest.raises(ModelConfigError, match="no computer-use tool"):
        AnthropicModel("my-model", base_url="http://127.0.0.1:9", interface="computer")
    with pytest.raises(ModelConfigError, match="unknown interface"):
        AnthropicModel("claude-sonnet-4-6", base_url="http://127.0.0.1:9", interface="gui")


async def test_append_only_history_compacts_and_places_three_breakpoints(session):
    """Eight hovers on a page that does not change: the request only grows between compaction
    points, the unchanged screenshot is not re-sent, breakpoints sit where they must."""
    row = conventions_for("claude-sonnet-4-6")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        assert make_config().on("append_history") and not make_config("paper").on("append_history")
        hover = ("hover", {"start_box": [5, 5]})  # cheap, and the page stays as it is
        script = [tool_answer(hover) for _ in range(8)]
        script[3] = tool_answer(hover, usage={"input_tokens": 900, "output_tokens": 5})
        with fake_llm(script) as srv:
            model = AnthropicModel("claude-sonnet-4-6", base_url=srv.base_url, retry=FAST)
            usages = []
            for _ in range(8):
                await h.observe()
                reply = await model.next_reply(h.model_input("Look"))
                usages.append(reply.usage)
                await h.step(reply.text, reply.tool_calls)
            await model.aclose()
    bodies = [r.body for r in srv.received]
    for r in srv.received:
        validate(r.body, r.headers, row)
    strip = [
        [{k: v for k, v in b.items() if k != "cache_control"} for b in blocks_of(body)] for body in bodies
    ]
    for k in range(1, 8):
        if k % 5:  # append-only: the previous request is a prefix of this one
            assert strip[k][: len(strip[k - 1])] == strip[k - 1], f"prefix changed at step {k + 1}"
    # The page did not change: one image at step 1, then "looks the same" lines.
    assert len(images_of(bodies[4])) == 1
    assert sum(SAME in (b.get("text") or "") for b in blocks_of(bodies[4])) == 4
    # Step 6 compacts: the old image is a stub, the current one is sent again.
    assert any(b.get("text") == STUB for b in blocks_of(bodies[5])) and len(images_of(bodies[5])) == 1
    marks = [[i for i, b in enumerate(blocks_of(body)) if "cache_control" in b] for body in bodies]
    assert all(len(m) == 2 for m in marks[:5]) and all(len(m) == 3 for m in marks[5:])
    assert marks[0][0] == len(bodies[0]["tools"])  # the system block: end of tools + system
    assert usages[0].cache_creation_input_tokens == 3000 and usages[0].input_tokens == 50
    assert usages[3].cache_miss and not usages[0].cache_miss
    assert usages[0].prompt_tokens == 3050


async def test_refusal_and_unknown_or_bad_tools_are_rejected_with_a_note(session):
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        script = [
            tool_answer(text="I can't help with that.", stop_reason="refusal"),
            tool_answer(("teleport", {"url": "http://x"})),
            tool_answer(("click", {"start_box": "somewhere"})),
            tool_answer(("fill", {"start_box": [1, 2]})),
        ]
        results, replies = [], []
        with fake_llm(script) as srv:
            model = AnthropicModel("claude-sonnet-4-6", base_url=srv.base_url, retry=FAST)
            for _ in range(4):
                await h.observe()
                reply = await model.next_reply(h.model_input("x"))
                replies.append(reply)
                results.append(await h.step(reply.text, reply.tool_calls))
            await model.aclose()
    assert replies[0].notes and "refusal" in replies[0].notes[0]
    assert all(r.outcome == "rejected" for r in results)
    assert "Unknown tool `teleport`" in results[1].error
    assert "could not read start_box" in results[2].error
    assert "missing required argument content" in results[3].error
    # The rejection reaches the model as the call's result.
    assert "could not read start_box" in srv.received[3].body["messages"][-1]["content"][0]["content"]
