"""Claude's computer-tool `zoom` through the real Anthropic client, a fake Messages API on
loopback and a real page: `enable_zoom` is declared where the tool version has it, the call
runs our zoom, and the next request answers that tool_use with a tool_result that carries
the magnified crop. Where the version has no zoom, our own `zoom` tool is offered instead."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from tests.models.anthropic_shapes import images_of, validate
from tests.models.fake_llm import fake_llm
from tests.models.inputs import FAST
from tests.models.test_anthropic_tools import tool_answer
from tests.support.servers import serve_pages
from webfovea.harness import Harness
from webfovea.models.anthropic_client import AnthropicModel
from webfovea.models.anthropic_transcript import STUB, Transcript, image_block
from webfovea.models.base import ModelInput
from webfovea.models.conventions import conventions_for
from webfovea.observation.sizing import harness_config

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<html><body style="margin:0;background:#fff">
<div id=tiny style="position:absolute;left:300px;top:200px;font:6px sans-serif;white-space:nowrap">
Net revenue 2025: 4,817,392.06 EUR</div>
<div id=count>0</div>
<script>let clicks = 0; addEventListener('click', () => { clicks += 1; });</script></body></html>"""


async def _harness(session, url, model_spec):
    page = await session.fresh_page()
    h = await Harness.on_page(page, harness_config(model=model_spec))
    await h.goto(url)
    return h


async def _region(h, obs):
    b = await h.page.locator("#tiny").bounding_box()
    x1, y1 = obs.shot.from_css(b["x"], b["y"])
    x2, y2 = obs.shot.from_css(b["x"] + b["width"], b["y"] + b["height"])
    return [int(x1), int(y1), int(x2) + 1, int(y2) + 1]


def _decode(block):
    return Image.open(io.BytesIO(base64.b64decode(block["source"]["data"])))


async def test_computer_zoom_result_carries_the_crop(session):
    row = conventions_for("claude-sonnet-4-6")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        obs = await h.observe()
        region = await _region(h, obs)
        script = [
            tool_answer(("computer", {"action": "zoom", "region": region}), text="The digits are tiny."),
            tool_answer(("finished", {"content": "4,817,392.06"})),
        ]
        with fake_llm(script) as srv:
            model = AnthropicModel(
                "claude-sonnet-4-6", base_url=srv.base_url, retry=FAST, interface="computer"
            )
            reply = await model.next_reply(h.model_input("Read the net revenue"))
            res = await h.step(reply.text, reply.tool_calls)
            await h.observe()
            reply2 = await model.next_reply(h.model_input("Read the net revenue"))
            res2 = await h.step(reply2.text, reply2.tool_calls)
            await model.aclose()
        assert res.action.name == "zoom" and res.outcome == "executed", res.feedback
        assert res2.done and res2.answer == "4,817,392.06"
        assert await h.page.evaluate("clicks") == 0  # a zoom never clicks
        first, second = (r.body for r in srv.received)
        for r in srv.received:
            validate(r.body, r.headers, row)
        tools = {t["name"]: t for t in first["tools"]}
        assert tools["computer"]["type"] == "computer_20251124" and tools["computer"]["enable_zoom"] is True
        assert "zoom" not in tools  # the computer tool's own zoom runs it
        # The zoom call's id is answered first, with the note, the label and the crop.
        user = second["messages"][-1]["content"]
        result = user[0]
        assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_0_computer"
        kinds = [b["type"] for b in result["content"]]
        assert kinds == ["text", "text", "image"]
        assert result["content"][0]["text"].startswith("zoom: the region")
        crop = _decode(result["content"][2])
        attached = res.executed.outcome.response.attachments[0]
        assert crop.size == attached.image.size and crop.width > 4 * (region[2] - region[0])
        assert row.fits(*crop.size)
        # The screenshot is still the last top-level image, the size the computer tool declares.
        assert images_of(second)[-1].size == obs.image.size
        await h.page.close()


async def test_without_the_transcript_the_crop_precedes_the_screenshots(session):
    row = conventions_for("claude-sonnet-4-6")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "anthropic:claude-sonnet-4-6")
        obs = await h.observe()
        region = await _region(h, obs)
        res = await h.step(f"Action: zoom(region='{tuple(region)}')")
        await h.observe()
        with fake_llm([tool_answer(("finished", {"content": "x"}))]) as srv:
            model = AnthropicModel("claude-sonnet-4-6", base_url=srv.base_url, retry=FAST, cache=False)
            await model.next_reply(h.model_input("Read the net revenue"))
            await model.aclose()
        body = srv.received[0].body
        validate(body, srv.received[0].headers, row)
        images = images_of(body)
        assert len(images) == 3  # the crop, then both screenshots of the window
        assert images[0].size == res.executed.outcome.response.attachments[0].image.size
        assert images[-1].size == obs.image.size
        await h.page.close()


async def test_an_older_computer_tool_keeps_zoom_as_a_tool_of_its_own():
    model = AnthropicModel("claude-haiku-4-5", base_url="http://127.0.0.1:9", interface="computer")
    h = Harness(None, harness_config(model="anthropic:claude-haiku-4-5"))
    inp = ModelInput(
        system="s",
        task="t",
        history=[],
        images=[Image.new("RGB", (1280, 720))],
        feedback=None,
        step=0,
        tools=list(h.tools),
    )
    tools = {t["name"]: t for t in model.tools_for(inp)}
    assert tools["computer"]["type"] == "computer_20250124" and "enable_zoom" not in tools["computer"]
    assert tools["zoom"]["input_schema"]["properties"]["region"]["maxItems"] == 4
    await model.aclose()


async def test_compaction_stubs_the_crops_inside_tool_results_too():
    t = Transcript()
    t.messages = [
        {"role": "user", "content": [{"type": "text", "text": "## Task\nx"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "zoom", "input": {}}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "a",
                    "content": [{"type": "text", "text": "n"}, image_block("AAAA")],
                },
                image_block("BBBB"),
            ],
        },
    ]
    t.compact()
    result, shot = t.messages[2]["content"]
    assert result["content"][1] == {"type": "text", "text": STUB} and shot == {"type": "text", "text": STUB}
