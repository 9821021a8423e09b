"""The OpenAI-compatible client against a real scripted HTTP server on loopback."""

from __future__ import annotations

import base64
import io
import time

import pytest
from PIL import Image

from tests.models.fake_llm import Answer, compatible_ok, error, fake_llm, openai_ok
from tests.models.inputs import COLOURS, FAST, SIZES, make_input
from webfovea.models.base import ModelError
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.openai_client import OpenAIModel
from webfovea.models.retry import RetryPolicy


def hanging(ans: Answer, seconds: float) -> Answer:
    ans.hang_s = seconds
    return ans


def decode_data_url(url: str) -> Image.Image:
    prefix = "data:image/png;base64,"
    assert url.startswith(prefix)
    return Image.open(io.BytesIO(base64.b64decode(url[len(prefix) :])))


async def test_retries_429_503_403_timeout_then_answers():
    script = [
        error(429, "slow down", **{"Retry-After": "1"}),
        error(503, "overloaded"),
        error(403, "gateway says no, for now"),
        hanging(openai_ok("too late"), 3.0),
        openai_ok("Thought: done\nAction: finished(content='97.3')", prompt=1234, completion=56),
    ]
    with fake_llm(script) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", timeout_s=1.0, retry=FAST)
        try:
            t0 = time.monotonic()
            reply = await model.next_reply(make_input())
            elapsed = time.monotonic() - t0
        finally:
            await model.aclose()
        assert srv.attempts == 5
        times = [r.t for r in srv.received]
        assert times[1] - times[0] >= 1.0, "Retry-After: 1 was not honoured"
        assert times[4] - times[3] >= 1.0, "the hanging attempt did not wait for the client timeout"
        assert all(r.path == "/chat/completions" for r in srv.received)
    assert reply.text == "Thought: done\nAction: finished(content='97.3')"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (1234, 56)
    assert elapsed < 8.0


async def test_always_failing_server_gives_up_within_budget():
    policy = RetryPolicy(max_attempts=50, budget_s=1.5, base_delay_s=0.1, max_delay_s=0.2, min_attempt_s=0.1)
    with fake_llm([], default=error(503, "upstream down")) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", timeout_s=0.5, retry=policy)
        t0 = time.monotonic()
        with pytest.raises(ModelError) as info:
            await model.next_reply(make_input(1))
        elapsed = time.monotonic() - t0
        await model.aclose()
        attempts = srv.attempts
    msg = str(info.value)
    assert "503" in msg and "upstream down" in msg and "gave up after" in msg
    assert "\n" not in msg
    assert attempts >= 4
    assert elapsed <= 1.5 + 0.3


async def test_attempt_limit_is_exact():
    policy = RetryPolicy(max_attempts=3, budget_s=10, base_delay_s=0.02, max_delay_s=0.05)
    with fake_llm([], default=error(500, "boom")) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", retry=policy)
        with pytest.raises(ModelError, match=r"gave up after 3 attempts .*HTTP 500.*boom"):
            await model.next_reply(make_input(1))
        await model.aclose()
        assert srv.attempts == 3


async def test_bad_request_fails_at_once_with_server_message():
    with fake_llm([error(400, "image_url is not a valid data URL")], default=openai_ok("never")) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", retry=FAST)
        with pytest.raises(ModelError, match=r"HTTP 400.*image_url is not a valid data URL.*not retried"):
            await model.next_reply(make_input(1))
        await model.aclose()
        assert srv.attempts == 1


async def test_retry_after_beyond_budget_gives_up_without_sleeping():
    policy = RetryPolicy(max_attempts=6, budget_s=2.0, base_delay_s=0.05)
    with fake_llm([error(429, "quota", **{"Retry-After": "60"})], default=openai_ok("never")) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", retry=policy)
        t0 = time.monotonic()
        with pytest.raises(ModelError, match=r"HTTP 429.*quota.*asked to wait 60\.0 s"):
            await model.next_reply(make_input(1))
        assert time.monotonic() - t0 < 1.0
        await model.aclose()
        assert srv.attempts == 1


async def test_connection_refused_is_retried_then_explained():
    with fake_llm([]) as srv:
        dead = srv.base_url  # the port is free once the server is gone
    policy = RetryPolicy(max_attempts=3, budget_s=5, base_delay_s=0.02, max_delay_s=0.05)
    model = OpenAIModel("gpt-4o", base_url=dead, retry=policy)
    with pytest.raises(ModelError, match=r"gave up after 3 attempts.*connection failed"):
        await model.next_reply(make_input(1))
    await model.aclose()


async def test_request_carries_system_history_feedback_and_images():
    parts_reply = [{"type": "text", "text": "Thought: a"}, {"type": "text", "text": "\nAction: wait()"}]
    # Content as a list of parts: outside OpenAI's own type, written by some compatible servers.
    with fake_llm([compatible_ok(parts_reply)]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="sk-test", max_tokens=321, retry=FAST)
        reply = await model.next_reply(make_input())
        await model.aclose()
        req = srv.received[0]
    assert reply.text == "Thought: a\nAction: wait()"
    assert req.headers["authorization"] == "Bearer sk-test"
    body = req.body
    assert body["model"] == "gpt-4o" and body["max_tokens"] == 321 and body["temperature"] == 0.0
    system, user = body["messages"]
    assert system == {"role": "system", "content": "SYSTEM PROMPT: act on the page."}
    assert user["role"] == "user"
    texts = [p["text"] for p in user["content"] if p["type"] == "text"]
    joined = "\n".join(texts)
    assert "Find the population of Vietnam in 2020." in joined
    assert "Step 1:\nThought: open the menu\nAction: click(start_box='(10,20)')" in joined
    assert "Step 2:\nThought: pick the country" in joined
    assert "Nothing changed after the click." in joined
    images = [p for p in user["content"] if p["type"] == "image_url"]
    assert len(images) == 3
    decoded = [decode_data_url(p["image_url"]["url"]) for p in images]
    assert [im.size for im in decoded] == SIZES  # oldest first, as sent
    assert [im.convert("RGB").getpixel((5, 5)) for im in decoded] == COLOURS
    # the label right before the last image marks it as the current view of step 3
    last_img = user["content"].index(images[-1])
    assert "Current screenshot (step 3)" in user["content"][last_img - 1]["text"]
    assert "Earlier screenshot (step 1)" in user["content"][user["content"].index(images[0]) - 1]["text"]


async def test_first_step_without_feedback_or_history():
    with fake_llm([openai_ok("x")]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, retry=FAST)  # loopback: no key needed
        inp = make_input(1, feedback=None)
        inp.history, inp.step = [], 0
        await model.next_reply(inp)
        await model.aclose()
        req = srv.received[0]
    assert "authorization" not in req.headers
    texts = "\n".join(p["text"] for p in req.body["messages"][1]["content"] if p["type"] == "text")
    assert "(none: this is the first step)" in texts
    assert "What happened after your last action" not in texts
    assert "Current screenshot (step 1)" in texts


async def test_reasoning_model_row_changes_request_fields():
    with fake_llm([openai_ok("x")]) as srv:
        model = OpenAIModel("o3", base_url=srv.base_url, max_tokens=2048, retry=FAST)
        await model.next_reply(make_input(1))
        await model.aclose()
        body = srv.received[0].body
    assert body["max_completion_tokens"] == 2048
    assert "max_tokens" not in body and "temperature" not in body


async def test_non_json_success_body_is_a_clear_error():
    with fake_llm([Answer(200, "<html>proxy login</html>")]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, retry=FAST)
        with pytest.raises(ModelError, match="not JSON"):
            await model.next_reply(make_input(1))
        await model.aclose()


def test_missing_key_for_remote_endpoint_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY"):
        OpenAIModel("gpt-4o")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://gateway.example/v1/")
    m = OpenAIModel("gpt-4o")
    assert m.base_url == "https://gateway.example/v1"
    assert m.headers()["Authorization"] == "Bearer sk-env"
    with pytest.raises(ModelConfigError, match="not an http"):
        OpenAIModel("gpt-4o", base_url="gateway.example")
