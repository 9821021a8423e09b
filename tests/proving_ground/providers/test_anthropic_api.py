"""The loopback Messages API behind `--via anthropic`, driven by the real Anthropic client.

A scripted model stands in for the oracle (the server serves any model); what it is
given is checked too: only what the request carried."""

from __future__ import annotations

import httpx
import pytest
from PIL import Image

from tests.support.scripted import ScriptedModel as Scripted
from webfovea.actions.catalog import offered
from webfovea.actions.tools import tool_defs
from webfovea.config import make_config
from webfovea.models.anthropic_client import ANTHROPIC_VERSION
from webfovea.models.base import ModelInput
from webfovea.observation.prompt import system_prompt
from webfovea_proving_ground.oracle.via import OracleVia, forget_caches

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def cold_cache() -> None:
    forget_caches()  # the key's cache lives for the process: earlier tests' prefixes are in it


def _input(step: int, history: list[str], feedback: str | None) -> ModelInput:
    config = make_config()
    specs = offered(config)
    return ModelInput(
        system=system_prompt(specs, config),
        task="Find it",
        history=history,
        images=[Image.new("RGB", (1440, 810), (9 * step, 80, 80))],
        feedback=feedback,
        step=step,
        tools=tool_defs(specs),
        system_tools=system_prompt(specs, config, tools=True),
        append_history=True,
    )


async def test_tools_round_trip_and_billing_through_the_real_client():
    model = Scripted(
        [
            "Thought: the button\nAction: click(start_box='<|box_start|>(10,20)<|box_end|>')",
            "Thought: done\nAction: finished(content='42')",
        ]
    )
    via = OracleVia(model, "anthropic")
    try:
        r1 = await via.next_reply(_input(0, [], None))
        assert r1.text == "the button" and r1.tool_calls[0].name == "click"
        assert r1.tool_calls[0].input == {"start_box": [10.0, 20.0]}
        # The first call writes everything up to its last breakpoint (above the row's 2,048 minimum).
        assert r1.usage.cache_creation_input_tokens > 2048 and r1.usage.cache_read_input_tokens == 0
        assert r1.usage.input_tokens == 0 and not r1.usage.cache_miss
        history = ["Thought: the button\nAction: click(start_box='<|box_start|>(10,20)<|box_end|>')"]
        r2 = await via.next_reply(_input(1, history, "Clicked; the page changed."))
        assert r2.tool_calls[0].input == {"content": "42"}
        # The second call reads the whole first request back and writes only the new turn.
        assert r2.usage.cache_read_input_tokens == r1.usage.prompt_tokens
        assert 1556 <= r2.usage.cache_creation_input_tokens < 1556 + 200
    finally:
        await via.aclose()
    first, second = model.seen
    assert (
        "## Actions\n- click(start_box=...)" in first.system
        and "Thought:" not in first.system.split("## Actions")[0]
    )
    assert first.task == "Find it" and first.step == 0 and first.images[-1].size == (1440, 810)
    assert second.step == 1 and second.feedback == "Clicked; the page changed."
    assert second.history == ["the button"]  # the text beside the call, as the model wrote it


async def test_the_next_task_reads_the_tools_and_system_prompt_an_earlier_task_wrote():
    """One loopback server per task, one cache per API key: as on the real API, a run's second
    task finds the tools and system prompt in the cache from its first request on."""
    reply = "Thought: t\nAction: wait()"
    first, second = OracleVia(Scripted([reply]), "anthropic"), OracleVia(Scripted([reply]), "anthropic")
    try:
        r1 = await first.next_reply(_input(0, [], None))
        other = _input(0, [], None)
        other.task = "Find something else"
        other.images = [Image.new("RGB", (1440, 810), (1, 2, 3))]
        r2 = await second.next_reply(other)
    finally:
        await first.aclose()
        await second.aclose()
    assert r1.usage.cache_read_input_tokens == 0
    shared = r2.usage.cache_read_input_tokens
    # What was read is the prefix up to the system prompt's breakpoint: more than 2,048 (the
    # row's minimum), and all but the new task's own turn (its image alone is 1,556 tokens).
    assert shared > 2048 and r2.usage.cache_creation_input_tokens >= 1556
    assert shared + r2.usage.cache_creation_input_tokens == r2.usage.prompt_tokens


async def test_text_interface_and_what_the_api_rejects():
    model = Scripted(["Thought: t\nAction: wait()"])
    via = OracleVia(model, "anthropic", interface="text")
    try:
        reply = await via.next_reply(_input(0, [], None))
        assert reply.text.endswith("Action: wait()") and not reply.tool_calls
        url = via.client.endpoint
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        orphan = {
            "model": "m",
            "max_tokens": 5,
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t1", "name": "wait", "input": {}}],
                },
                {"role": "user", "content": [{"type": "text", "text": "no result"}]},
            ],
        }
        async with httpx.AsyncClient() as http:
            resp = await http.post(url, json=orphan, headers=headers)
            assert resp.status_code == 400 and "without tool_result" in resp.json()["error"]["message"]
            five = {
                "model": "m",
                "max_tokens": 5,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
                            for _ in range(5)
                        ],
                    }
                ],
            }
            resp = await http.post(url, json=five, headers=headers)
            assert resp.status_code == 400 and "maximum of 4" in resp.json()["error"]["message"]
            resp = await http.post(url, json=five)
            assert resp.status_code == 400 and "anthropic-version" in resp.json()["error"]["message"]
    finally:
        await via.aclose()
