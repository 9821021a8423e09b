"""The Anthropic Messages client against a real scripted HTTP server on loopback."""

from __future__ import annotations

import base64
import io
import time

import pytest
from PIL import Image

from tests.models.fake_llm import anthropic_ok as ok
from tests.models.fake_llm import error, fake_llm
from tests.models.inputs import COLOURS, FAST, SIZES, make_input
from webfovea.models.anthropic_client import ANTHROPIC_VERSION, AnthropicModel
from webfovea.models.base import ModelError
from webfovea.models.endpoint import ModelConfigError


async def test_retries_overloaded_and_rate_limit_then_answers():
    script = [
        error(529, "Overloaded"),
        error(429, "rate limited", **{"retry-after": "1"}),
        ok("Thought: t\nAction: click(start_box='(1,2)')", input_tokens=900, output_tokens=40),
    ]
    with fake_llm(script) as srv:
        model = AnthropicModel("claude-opus-4-6", base_url=srv.base_url, api_key="ak", retry=FAST)
        t0 = time.monotonic()
        reply = await model.next_reply(make_input())
        elapsed = time.monotonic() - t0
        await model.aclose()
        assert srv.attempts == 3
        times = [r.t for r in srv.received]
        assert times[2] - times[1] >= 1.0
    assert reply.text == "Thought: t\nAction: click(start_box='(1,2)')"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (900, 40)
    assert elapsed < 4.0


async def test_request_shape_headers_and_images():
    with fake_llm([ok("x")]) as srv:
        model = AnthropicModel(
            "claude-opus-4-6", base_url=srv.base_url, api_key="ak-1", max_tokens=256, retry=FAST
        )
        await model.next_reply(make_input())
        await model.aclose()
        req = srv.received[0]
    assert req.path == "/v1/messages"
    assert req.headers["authorization"] == "Bearer ak-1"  # how the SDK sends an API key
    assert req.headers["anthropic-version"] == ANTHROPIC_VERSION
    body = req.body
    assert body["system"] == [{"type": "text", "text": "SYSTEM PROMPT: act on the page."}]
    assert body["max_tokens"] == 256 and body["model"] == "claude-opus-4-6"
    (msg,) = body["messages"]
    assert msg["role"] == "user"
    text = "\n".join(b["text"] for b in msg["content"] if b["type"] == "text")
    assert "Find the population of Vietnam in 2020." in text
    assert "Step 2:\nThought: pick the country" in text
    assert "Nothing changed after the click." in text
    imgs = [b for b in msg["content"] if b["type"] == "image"]
    assert [b["source"]["media_type"] for b in imgs] == ["image/png"] * 3
    decoded = [Image.open(io.BytesIO(base64.b64decode(b["source"]["data"]))) for b in imgs]
    assert [im.size for im in decoded] == SIZES
    assert [im.convert("RGB").getpixel((0, 0)) for im in decoded] == COLOURS
    assert "Current screenshot (step 3)" in msg["content"][msg["content"].index(imgs[-1]) - 1]["text"]


async def test_base_url_with_v1_and_bad_request():
    with fake_llm([error(400, "messages: too many images")]) as srv:
        model = AnthropicModel("claude-opus-4-6", base_url=srv.base_url + "/v1", retry=FAST)
        with pytest.raises(ModelError, match=r"HTTP 400.*too many images"):
            await model.next_reply(make_input(1))
        await model.aclose()
        assert srv.attempts == 1
        assert srv.received[0].path == "/v1/messages"
        assert "authorization" not in srv.received[0].headers


async def test_thinking_blocks_are_not_part_of_the_reply_and_cache_tokens_count():
    answer = ok("Action: wait()")
    answer.body["content"].insert(0, {"type": "thinking", "thinking": "hmm"})
    answer.body["usage"] |= {"cache_read_input_tokens": 100, "cache_creation_input_tokens": 10}
    with fake_llm([answer]) as srv:
        model = AnthropicModel("claude-opus-4-6", base_url=srv.base_url, retry=FAST)
        reply = await model.next_reply(make_input(1))
        await model.aclose()
    assert reply.text == "Action: wait()"
    assert reply.usage.prompt_tokens == 13 + 110


def test_missing_key_for_remote_endpoint(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    with pytest.raises(ModelConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicModel("claude-opus-4-6")
