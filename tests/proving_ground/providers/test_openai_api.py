"""The loopback Chat Completions API behind `--via openai`, driven by the real OpenAI client.

A scripted model stands in for the oracle; what it is given is checked too: only what the
request carried, read back from the prompt text (webfovea_proving_ground/providers/prompt_reader.py)."""

from __future__ import annotations

import httpx
import pytest
from PIL import Image

from tests.support.scripted import ScriptedModel
from webfovea.actions.catalog import offered
from webfovea.config import make_config
from webfovea.models.base import ModelInput
from webfovea.models.conventions import conventions_for
from webfovea.models.messages import closing_text, intro_text
from webfovea.observation.prompt import system_prompt
from webfovea_proving_ground.oracle.via import OracleVia, forget_caches
from webfovea_proving_ground.providers.openai_api import CACHE_MIN_TOKENS, CACHE_STEP_TOKENS, image_tokens
from webfovea_proving_ground.providers.prompt_reader import read_prompt


@pytest.fixture(autouse=True)
def cold_cache() -> None:
    forget_caches()  # the key's cache lives for the process: earlier tests' prefixes are in it


def _input(step: int, history: list[str], feedback: str | None, **kw) -> ModelInput:
    config = make_config()
    return ModelInput(
        system=system_prompt(offered(config), config),
        task="Find the CPI of Vietnam",
        history=history,
        images=[Image.new("RGB", (1440, 810), (9 * step, 80, 80))],
        feedback=feedback,
        step=step,
        **kw,
    )


def test_the_prompt_reads_back_into_what_the_model_was_given():
    inp = _input(
        3,
        ["Thought: a\nAction: click(x)", "", "Thought: c\nAction: wait()"],
        "It changed.\nTwice.",
        summary="opened the page",
        history_start=4,
        snapshot='- heading "Prices" [ref=e1]\n## text a page wrote\n- button "Apply" [ref=e2]',
    )
    got = read_prompt(intro_text(inp), closing_text(inp))
    assert (got.task, got.summary, got.history, got.history_start) == (inp.task, inp.summary, inp.history, 4)
    assert got.feedback == inp.feedback and got.snapshot == inp.snapshot and got.purpose == "act"
    summary_call = _input(0, [], None, closing="Summarise your progress in at most 6,000 characters.")
    got = read_prompt(intro_text(summary_call), closing_text(summary_call))
    assert got.purpose == "summary" and got.closing.startswith("Summarise") and got.feedback is None


@pytest.mark.asyncio
async def test_replies_usage_and_automatic_caching_through_the_real_client():
    model = ScriptedModel(
        [
            "Thought: the list\nAction: click(start_box='<|box_start|>(10,20)<|box_end|>')",
            "Thought: done\nAction: finished(content='42')",
        ]
    )
    via = OracleVia(model, "openai")
    try:
        r1 = await via.next_reply(_input(0, [], None))
        assert r1.text.endswith("Action: click(start_box='<|box_start|>(10,20)<|box_end|>')")
        # gpt-4o sees 1440x810 as 1365x768: 3x2 tiles of 512 px.
        assert image_tokens((1440, 810), None, conventions_for("gpt-4o")) == 85 + 170 * 6
        assert r1.usage.prompt_tokens > CACHE_MIN_TOKENS and r1.usage.cache_read_input_tokens == 0
        assert r1.usage.input_tokens == r1.usage.prompt_tokens
        r2 = await via.next_reply(_input(1, [r1.text], "Clicked; the list opened."))
        # The system prompt and the task are a shared prefix; the image changed, so it is not.
        read = r2.usage.cache_read_input_tokens
        assert read >= CACHE_MIN_TOKENS and (read - CACHE_MIN_TOKENS) % CACHE_STEP_TOKENS == 0
        assert r2.usage.input_tokens == r2.usage.prompt_tokens - read and read < r2.usage.prompt_tokens
        assert r2.text.endswith("finished(content='42')")
    finally:
        await via.aclose()
    first, second = model.seen
    assert first.task == "Find the CPI of Vietnam" and first.step == 0 and first.feedback is None
    assert first.images[-1].size == (1440, 810) and "click(" in first.system
    assert second.step == 1 and second.feedback == "Clicked; the list opened." and second.history == [r1.text]


@pytest.mark.asyncio
async def test_what_the_api_rejects():
    via = OracleVia(ScriptedModel([], then="Thought: t\nAction: wait()"), "openai")
    try:
        await via.next_reply(_input(0, [], None))
        url, body = via.client.endpoint, via.app.state.requests[0]
        auth = {"Authorization": "Bearer k"}
        async with httpx.AsyncClient() as http:
            resp = await http.post(url, json=body)
            assert resp.status_code == 401
            wrong = {**body, "max_completion_tokens": 5}
            resp = await http.post(url, json=wrong, headers=auth)
            assert resp.status_code == 400 and "max_completion_tokens" in resp.json()["error"]["message"]
            linked = {
                "model": "gpt-4o",
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}],
                    }
                ],
            }
            resp = await http.post(url, json=linked, headers=auth)
            assert resp.status_code == 400 and "data URLs" in resp.json()["error"]["message"]
            resp = await http.post(
                url, json={"model": "gpt-4o", "messages": [{"role": "robot", "content": "x"}]}, headers=auth
            )
            assert resp.status_code == 400 and "role" in resp.json()["error"]["message"]
    finally:
        await via.aclose()
    with pytest.raises(ValueError, match="via=anthropic"):
        OracleVia(ScriptedModel([]), "openai", interface="tools")


@pytest.mark.asyncio
@pytest.mark.parametrize("via", ["openai", "anthropic", "gemini"])
async def test_the_verifier_request_reaches_the_oracle_as_a_verifier_call(via):
    from webfovea.guardrails.evidence import Evidence
    from webfovea.guardrails.verifier import (
        CLOSING,
        PURPOSE,
        SYSTEM,
        candidate_of,
        parse_verdict,
        request_text,
    )

    shot = Image.new("RGB", (1440, 810), (200, 200, 200))
    ev = Evidence("3.4", shot, "http://127.0.0.1/cpi", ["Viet Nam 3.4"], None, "2026-01-01T00:00:00+00:00")
    inp = ModelInput(
        system=SYSTEM,
        task=request_text("Find the CPI of Vietnam", ev),
        history=[],
        images=[shot],
        feedback=None,
        step=0,
        purpose=PURPOSE,
        closing=CLOSING,
    )
    behind = ScriptedModel(["VERDICT: reject\nREASON: the key-figures box.\nLOOK AT: the Viet Nam row"])
    model = OracleVia(behind, via)
    try:
        reply = await model.next_reply(inp)
    finally:
        await model.aclose()
    seen = behind.seen[0]  # read back from the request alone, as any step is
    assert seen.purpose == PURPOSE and candidate_of(seen.task) == "3.4" and "Vietnam" in seen.task
    verdict = parse_verdict(reply.text or "")
    assert not verdict.accept and verdict.look_at == "the Viet Nam row"
