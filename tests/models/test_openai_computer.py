"""OpenAI's computer tool through the Responses API: a fake server on loopback, a real page."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from tests.models.fake_llm import Answer, fake_llm
from tests.models.inputs import FAST
from tests.models.test_anthropic_tools import PAGE, _centre, _harness, _img_point
from tests.support.servers import serve_pages
from webfovea.models.conventions import conventions_for
from webfovea.models.factory import make_model
from webfovea.models.openai_responses import NOT_EXECUTED, OpenAIResponsesModel

pytestmark = pytest.mark.asyncio(loop_scope="session")


def response(rid: str, *items: dict, cached: int = 0) -> Answer:
    return Answer(
        200,
        {
            "id": rid,
            "object": "response",
            "output": list(items),
            "usage": {
                "input_tokens": 2000,
                "input_tokens_details": {"cached_tokens": cached},
                "output_tokens": 20,
            },
        },
    )


def computer_call(call_id: str, *actions: dict, legacy: bool = False, checks: list | None = None) -> dict:
    item = {
        "type": "computer_call",
        "id": "cu_" + call_id,
        "call_id": call_id,
        "status": "completed",
        "pending_safety_checks": checks or [],
    }
    if legacy:
        item["action"] = actions[0]
    else:
        item["actions"] = list(actions)
    return item


def answered(body: dict) -> list[str]:
    return [
        i["call_id"]
        for i in body["input"]
        if i.get("type") in ("computer_call_output", "function_call_output")
    ]


async def test_ga_batch_runs_its_first_action_and_every_call_is_answered(session):
    row = conventions_for("gpt-5.4")
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "openai:gpt-5.4")
        obs = await h.observe()
        q, go = await _centre(h.page, "#q"), await _centre(h.page, "#go")
        qx, qy = _img_point(obs, q)
        gx, gy = _img_point(obs, go)
        check = {"id": "sc_1", "code": "malicious_instructions", "message": "Check the page."}
        script = [
            response(
                "resp_1",
                {"type": "message", "content": [{"type": "output_text", "text": "Type the city."}]},
                computer_call(
                    "call_a",
                    {"type": "click", "x": qx, "y": qy, "button": "left"},
                    {"type": "type", "text": "hanoi"},
                    checks=[check],
                ),
            ),
            response(
                "resp_2",
                {
                    "type": "function_call",
                    "call_id": "call_b",
                    "name": "fill",
                    "arguments": json.dumps({"start_box": [qx, qy], "content": "hanoi"}),
                },
                {"type": "function_call", "call_id": "call_c", "name": "finished", "arguments": "{}"},
            ),
            response(
                "resp_3",
                computer_call("call_d", {"type": "click", "x": gx, "y": gy, "button": "left"}),
                cached=1500,
            ),
        ]
        with fake_llm(script) as srv:
            model = make_model("openai:gpt-5.4", base_url=srv.base_url, options={"retry": FAST})
            assert isinstance(model, OpenAIResponsesModel)
            replies, results = [], []
            for _ in range(3):
                await h.observe()
                reply = await model.next_reply(h.model_input("Search hanoi"))
                replies.append(reply)
                results.append(await h.step(reply.text, reply.tool_calls))
            await model.aclose()
        assert await h.page.locator("#log").text_content() == "clicked hanoi"
        assert results[0].action.name == "click" and results[1].action.name == "fill"
        assert (
            "batch of 2 actions" in replies[0].notes[0] and "safety check acknowledged" in replies[0].notes[1]
        )
        assert replies[2].usage.cache_read_input_tokens == 1500 and replies[2].usage.input_tokens == 500
        bodies = [r.body for r in srv.received]
        assert srv.received[0].path == "/responses"
        assert bodies[0]["tools"][0] == {"type": "computer"}
        names = [t["name"] for t in bodies[0]["tools"][1:]]
        assert "fill" in names and "finished" in names and "click" not in names
        assert answered(bodies[1]) == ["call_a"] and bodies[1]["previous_response_id"] == "resp_1"
        out = bodies[1]["input"][0]
        assert out["acknowledged_safety_checks"] == [check]
        shot = Image.open(io.BytesIO(base64.b64decode(out["output"]["image_url"].split(",", 1)[1])))
        assert row.fits(*shot.size) and shot.size == obs.image.size
        assert answered(bodies[2]) == ["call_b", "call_c"]
        assert bodies[2]["input"][1]["output"] == NOT_EXECUTED


async def test_legacy_preview_tool_declares_the_display(session):
    with serve_pages({"/": PAGE}) as site:
        h = await _harness(session, site.url("/"), "openai:computer-use-preview")
        obs = await h.observe()
        go = _img_point(obs, await _centre(h.page, "#go"))
        script = [
            response(
                "r1",
                computer_call(
                    "c1", {"type": "click", "x": go[0], "y": go[1], "button": "right"}, legacy=True
                ),
            ),
            response("r2", computer_call("c2", {"type": "screenshot"}, legacy=True)),
        ]
        with fake_llm(script) as srv:
            model = make_model("openai:computer-use-preview", base_url=srv.base_url, options={"retry": FAST})
            res = []
            for _ in range(2):
                await h.observe()
                reply = await model.next_reply(h.model_input("x"))
                res.append(await h.step(reply.text, reply.tool_calls))
            await model.aclose()
        tool = srv.received[0].body["tools"][0]
        assert tool == {
            "type": "computer_use_preview",
            "display_width": obs.image.size[0],
            "display_height": obs.image.size[1],
            "environment": "browser",
        }
        assert res[0].action.name == "right_single" and res[0].outcome in ("executed", "no_effect")
        assert res[1].outcome == "rejected" and "screenshot" in res[1].error
