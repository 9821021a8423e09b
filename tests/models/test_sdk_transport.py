"""The official SDKs carry the calls: the SDK's own headers, a user's own client object used as
given (its key and headers), our retry policy in place of the SDK's, the version pinned."""

from __future__ import annotations

import anthropic
import openai
from anthropic._constants import ANTHROPIC_API_VERSION

from tests.models.fake_llm import anthropic_ok, error, fake_llm, openai_ok
from tests.models.inputs import FAST, make_input
from webfovea.models.anthropic_client import ANTHROPIC_VERSION, AnthropicModel
from webfovea.models.factory import make_model
from webfovea.models.openai_client import OpenAIModel


async def test_requests_go_through_the_sdk_client():
    with fake_llm([openai_ok("Action: wait()")]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="sk-1", retry=FAST)
        await model.next_reply(make_input(1))
        await model.aclose()
    headers = srv.received[0].headers
    assert headers["user-agent"].startswith("AsyncOpenAI/Python")
    assert headers["x-stainless-retry-count"] == "0"  # the SDK's retries are off: ours decide


async def test_a_users_own_openai_client_is_used_as_given_with_our_retries():
    with fake_llm([error(503, "busy"), openai_ok("Action: wait()")]) as srv:
        own = openai.AsyncOpenAI(base_url=srv.base_url, api_key="user-key", default_headers={"X-Org": "mine"})
        model = make_model("openai:gpt-4o", options={"client": own, "base_delay_s": 0.05})
        reply = await model.next_reply(make_input(1))
        await model.aclose()  # the user's client stays theirs: not closed
        assert not own.is_closed()
        await own.close()
    assert reply.text == "Action: wait()" and srv.attempts == 2
    assert all(r.headers["authorization"] == "Bearer user-key" for r in srv.received)
    assert srv.received[0].headers["x-org"] == "mine"


async def test_a_users_own_anthropic_client_keeps_the_pinned_version():
    with fake_llm([anthropic_ok("Action: wait()")]) as srv:
        own = anthropic.AsyncAnthropic(base_url=srv.base_url, api_key="ak-user")
        model = AnthropicModel("claude-sonnet-4-6", client=own, retry=FAST, interface="text")
        await model.next_reply(make_input(1))
        await model.aclose()
        await own.close()
    req = srv.received[0]
    assert req.path == "/v1/messages" and req.headers["authorization"] == "Bearer ak-user"
    assert req.headers["anthropic-version"] == ANTHROPIC_VERSION


def test_the_pinned_anthropic_version_is_the_sdks():
    # An SDK upgrade that moves the API version must be looked at: the requests and the
    # loopback server follow ANTHROPIC_VERSION.
    assert ANTHROPIC_API_VERSION == ANTHROPIC_VERSION
