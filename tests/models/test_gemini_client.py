"""`gemini:MODEL` through google-genai against a loopback server that answers with the SDK's own
types and checks every request against them: each reply shape, the errors, the retries, the
request the SDK sends (system instruction, inline images, sampling, function declarations) and
the scrub of known secrets. No network, no browser (the run_task shapes: test_gemini_shapes.py)."""

from __future__ import annotations

import base64
import json

import pytest

from tests.models.fake_llm import Answer
from tests.models.fake_llm import fake_llm as any_fake_llm
from tests.models.inputs import FAST, make_input
from webfovea.actions.catalog import offered
from webfovea.actions.tools import tool_defs
from webfovea.config import make_config
from webfovea.models.base import ModelError
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.factory import make_model
from webfovea.models.gemini_client import GeminiModel
from webfovea.secrets import Secret, remember
from webfovea_proving_ground.providers.gemini_replies import (
    candidate,
    function_call_part,
    gemini_error,
    gemini_response,
    gemini_text,
    text_part,
    thought_part,
)

MODEL = "gemini-2.5-flash"
ACT = "Thought: t\nAction: wait()"


def fake_llm(script: list[Answer]):
    """The scripted server, checking Gemini requests only (no other SDK's validators to build)."""
    return any_fake_llm(script, warm_apis=())


def named(obj: dict, camel: str):
    """A wire field by its JSON name or its proto name (the API accepts both)."""
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in camel)
    return obj[camel] if camel in obj else obj[snake]


def ok(*candidates: dict, **kw) -> Answer:
    return Answer(200, gemini_response(*candidates, **kw))


def err(code: int, status: str, message: str = "m", **headers: str) -> Answer:
    return Answer(code, gemini_error(code, message, status), dict(headers))


async def ask(script: list[Answer], *, tools: bool = False, key: str | None = "k", **kw):
    inp = make_input()
    if tools:
        specs = offered(make_config())
        inp.tools, inp.system_tools = tool_defs(specs), "TOOLS PROMPT"
    with fake_llm(script) as srv:
        model = GeminiModel(MODEL, base_url=srv.base_url, api_key=key, retry=FAST, **kw)
        try:
            reply = await model.next_reply(inp)
        finally:
            await model.aclose()
    return reply, srv


async def test_text_reply_and_the_request_the_sdk_sent():
    reply, srv = await ask([Answer(200, gemini_text(ACT, prompt_tokens=900, cached_tokens=300))])
    assert reply.text == ACT and not reply.tool_calls and reply.cut_off is None
    assert (reply.usage.prompt_tokens, reply.usage.input_tokens, reply.usage.cache_read_input_tokens) == (
        900,
        600,
        300,
    )
    (req,) = srv.received
    assert req.path == f"/v1beta/models/{MODEL}:generateContent" and req.headers["x-goog-api-key"] == "k"
    body = req.body
    assert body["systemInstruction"]["parts"][0]["text"] == "SYSTEM PROMPT: act on the page."
    assert body["generationConfig"] == {"temperature": 0.0, "maxOutputTokens": 1024}
    parts = body["contents"][0]["parts"]
    images = [p["inlineData"] for p in parts if "inlineData" in p]
    # The SDK writes a nested object's fields as named in Python (`mime_type`); the API reads both.
    assert len(images) == 3 and all(named(i, "mimeType") == "image/png" for i in images)
    raw = base64.urlsafe_b64decode(images[-1]["data"])
    assert raw.startswith(b"\x89PNG")  # the screenshot itself, not its base64 text encoded again
    assert parts[0]["text"].startswith("## Task") and parts[-1]["text"].startswith("Decide step 3")
    assert "tools" not in body  # the text interface declares no functions


async def test_function_calls_thought_parts_and_several_candidates():
    first = candidate(
        thought_part("Action: finished(content='a thought is never the answer')"),
        text_part("fill the name"),
        function_call_part("fill", {"start_box": [312, 203], "content": "Ada"}, "c1"),
        function_call_part("click", {"start_box": [1, 2]}),
    )
    second = candidate(text_part("Action: finished(content='other candidate')"), index=1)
    reply, srv = await ask([ok(first, second, thoughts_tokens=40, output_tokens=10)], tools=True)
    assert reply.text == "fill the name" and "never the answer" not in reply.text
    assert [(c.id, c.name) for c in reply.tool_calls] == [("c1", "fill"), ("call_1", "click")]
    assert reply.tool_calls[0].input == {"start_box": [312, 203], "content": "Ada"}
    assert reply.usage.completion_tokens == 50  # thinking is billed as output
    assert "2 candidates: the first is used" in reply.notes
    assert any(n.startswith("thinking: 1 thought part") for n in reply.notes)
    body = srv.received[0].body
    assert body["systemInstruction"]["parts"][0]["text"] == "TOOLS PROMPT"
    (decl,) = [d for d in body["tools"][0]["functionDeclarations"] if d["name"] == "fill"]
    assert named(decl, "parametersJsonSchema")["required"] == ["start_box", "content"]


CUT = [
    ("MAX_TOKENS", "finishReason=MAX_TOKENS"),
    ("SAFETY", "withheld"),
    ("RECITATION", "withheld"),
    ("MALFORMED_FUNCTION_CALL", "could not read"),
]


async def test_a_finish_reason_other_than_stop_is_a_cut_off_reply():
    half = function_call_part("fill", {"start_box": [1, 2]})
    script = [ok(candidate(half, finish_reason=finish)) for finish, _ in CUT]
    with fake_llm(script) as srv:
        model = GeminiModel(MODEL, base_url=srv.base_url, api_key="k", retry=FAST)
        try:
            for finish, said in CUT:
                reply = await model.next_reply(make_input())
                assert reply.cut_off and finish in reply.cut_off and said in reply.cut_off
                refusal = "refusal: finishReason=" + finish in reply.notes
                assert refusal == (finish in ("SAFETY", "RECITATION"))
        finally:
            await model.aclose()


async def test_max_tokens_gives_the_next_call_more_room():
    script = [
        ok(candidate(text_part("Thought: ha"), finish_reason="MAX_TOKENS")),
        Answer(200, gemini_text(ACT)),
    ]
    with fake_llm(script) as srv:
        model = GeminiModel(MODEL, base_url=srv.base_url, api_key="k", retry=FAST, max_tokens=300)
        try:
            assert (await model.next_reply(make_input())).cut_off
            assert (await model.next_reply(make_input())).cut_off is None
        finally:
            await model.aclose()
    sizes = [r.body["generationConfig"]["maxOutputTokens"] for r in srv.received]
    assert sizes == [300, 600]


async def test_a_blocked_prompt_is_an_error_and_no_candidates_an_empty_reply():
    with pytest.raises(ModelError, match=r"blocked the prompt \(promptFeedback.blockReason=SAFETY"):
        await ask([ok(block_reason="SAFETY")])
    reply, _ = await ask([ok()])
    assert reply.text == "" and reply.notes == ["no candidates in the response"] and not reply.cut_off


async def test_429_and_503_are_retried_after_retry_after():
    script = [err(429, "RESOURCE_EXHAUSTED", **{"Retry-After": "0.1"}), err(503, "UNAVAILABLE")]
    reply, srv = await ask([*script, Answer(200, gemini_text(ACT))])
    assert reply.text == ACT and srv.attempts == 3


KEY_ERRORS = [
    (401, "UNAUTHENTICATED", "Request had invalid authentication credentials."),
    (403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers."),
    (400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key. [API_KEY_INVALID]"),
    (400, "INVALID_ARGUMENT", "Unable to process input image."),
]


async def test_key_errors_and_other_4xx_are_not_retried_key_errors_name_the_variable():
    with fake_llm([err(*e) for e in KEY_ERRORS]) as srv:
        model = GeminiModel(MODEL, base_url=srv.base_url, api_key="k", retry=FAST)
        try:
            for code, _, message in KEY_ERRORS:
                with pytest.raises(ModelError) as got:
                    await model.next_reply(make_input())
                text = str(got.value)
                assert f"HTTP {code}" in text and "not retried" in text and message in text
                assert ("GEMINI_API_KEY" in text) == ("image" not in message)
        finally:
            await model.aclose()
    assert srv.attempts == len(KEY_ERRORS)  # one attempt each


async def test_a_secret_in_the_input_never_reaches_the_server():
    value = "Gq7!gemini-heron-51"
    remember({"gemini_pw": Secret(value=value, origins=["https://example.org"])})
    inp = make_input(feedback=f"The box now contains '{value}'.")
    inp.task += f" Log in with {value}."
    with fake_llm([Answer(200, gemini_text(ACT))]) as srv:
        model = GeminiModel(MODEL, base_url=srv.base_url, api_key="k", retry=FAST)
        try:
            await model.next_reply(inp)
        finally:
            await model.aclose()
    sent = json.dumps(srv.received[0].body)
    assert value not in sent and sent.count("<secret>gemini_pw</secret>") == 2
    assert sum(1 for p in srv.received[0].body["contents"][0]["parts"] if "inlineData" in p) == 3


def test_the_spec_key_variables_and_options(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with pytest.raises(ModelConfigError, match="GEMINI_API_KEY .or GOOGLE_API_KEY"):
        make_model("gemini:gemini-2.5-pro")
    monkeypatch.setenv("GOOGLE_API_KEY", "g-key")
    model = make_model("gemini:gemini-2.5-pro?interface=text,thinking=0", options={"temperature": 0.3})
    assert isinstance(model, GeminiModel) and model.key_variable == "GOOGLE_API_KEY"
    assert model.interface == "text" and model.temperature == 0.3 and model.conventions.family == "gemini"
    assert make_model("gemini:gemini-2.5-flash").interface == "gemini_tools"  # the row's interface
    body = model.request_body(make_input())
    assert body["config"]["thinking_config"] == {"thinking_budget": 0}
    with pytest.raises(ModelConfigError, match="unknown option"):
        make_model("gemini:gemini-2.5-pro?cache=false")
    with pytest.raises(ModelConfigError, match="unknown interface"):
        make_model("gemini:gemini-2.5-pro?interface=computer")
