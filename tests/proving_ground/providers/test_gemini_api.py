"""The loopback Gemini API behind `--via gemini`, driven by the real Gemini client (google-genai).

A scripted model stands in for the oracle (the server serves any model), as in test_shapes.py:
a task runs through `run_task` on real Chromium and a loopback page, and what reached the page is
asserted (function calls and thought parts end to end: tests/models/test_gemini_shapes.py). The server's own checks (no key, a body the SDK's types reject, a wrong
path) and its billing are asserted on the wire."""

from __future__ import annotations

import httpx
import pytest
from PIL import Image

from tests.models.shape_support import GO_CSS, NAME_CSS, PAGES, read, values
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.models.base import ModelInput
from webfovea.models.conventions import encode_point
from webfovea.observation.sizing import harness_config
from webfovea.task import Task
from webfovea_proving_ground.oracle.via import OracleVia, forget_caches
from webfovea_proving_ground.providers.gemini_api import image_tokens

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(autouse=True)
def cold_cache() -> None:
    forget_caches()


def norm(css: tuple[int, int]) -> tuple[int, int]:
    """A CSS point of the 1920x1080 viewport on Gemini's 0-999 grid."""
    return encode_point("norm999", css[0], css[1], 1920, 1080)


def decisions() -> list[str]:
    (nx, ny), (gx, gy) = norm(NAME_CSS), norm(GO_CSS)
    return [
        f"Thought: type the name\nAction: fill(start_box='({nx},{ny})', content='Ada Lovelace')",
        f"Thought: save it\nAction: click(start_box='({gx},{gy})')",
        "Thought: saved\nAction: finished(content='saved')",
    ]


async def _run(session, tmp_path, shape: str, **client):
    oracle = ScriptedModel(decisions())
    via = OracleVia(oracle, "gemini", shape=shape, **client)
    with serve_pages(PAGES) as site:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        # The row of the model served (norm999 coordinates), as `--via gemini` gets it.
        config = harness_config(model="gemini:gemini-2.5-flash", disable=["verifier"])
        res = await run_task(task, tmp_path / "t", session=session, model=via, config=config)
    result, steps = read(tmp_path / "t")
    return res, steps, site.log, via.app.state.requests, oracle


async def test_the_text_grammar_and_a_cut_off_reply_never_executed(session, tmp_path):
    res, steps, log, bodies, oracle = await _run(session, tmp_path, "cut_once", interface="text")
    assert res.status == "finished" and oracle.calls == 3 and "tools" not in bodies[0]
    assert steps[0]["outcome"] == "rejected" and "finishReason=MAX_TOKENS" in steps[0]["rejection"]
    assert steps[1]["action"]["name"] == "fill" and steps[1]["outcome"] == "executed"
    assert values(log, "/saved") == ["Ada Lovelace"]
    sizes = [b["generationConfig"]["maxOutputTokens"] for b in bodies[:2]]
    assert sizes[1] == 2 * sizes[0]


async def test_what_the_api_rejects_and_how_it_bills():
    assert image_tokens((1440, 810)) == 258 * 4 and image_tokens((300, 200)) == 258
    via = OracleVia(ScriptedModel([], then="Thought: t\nAction: wait()"), "gemini")
    inp = ModelInput(
        system="SYSTEM",
        task="Find the CPI of Vietnam",
        history=[],
        images=[Image.new("RGB", (1440, 810), (9, 80, 80))],
        feedback=None,
        step=0,
    )
    try:
        first = await via.next_reply(inp)
        second = await via.next_reply(inp)
        assert first.usage.cache_read_input_tokens == 0
        assert second.usage.cache_read_input_tokens >= 1024  # the same prompt again: implicit caching
        url, body = via.client.endpoint, via.app.state.requests[0]
        key = {"x-goog-api-key": "k"}
        async with httpx.AsyncClient() as http:
            resp = await http.post(url, json=body)
            assert resp.status_code == 403 and resp.json()["error"]["status"] == "PERMISSION_DENIED"
            resp = await http.post(url, json={**body, "max_tokens": 5}, headers=key)
            assert resp.status_code == 400 and 'Unknown name "max_tokens"' in resp.json()["error"]["message"]
            bad = {**body, "generationConfig": {"maxTokens": 5}}
            resp = await http.post(url, json=bad, headers=key)
            assert resp.status_code == 400 and "GenerationConfig" in resp.json()["error"]["message"]
            robot = {"contents": [{"role": "robot", "parts": [{"text": "x"}]}]}
            resp = await http.post(url, json=robot, headers=key)
            assert resp.status_code == 400 and "role" in resp.json()["error"]["message"]
            resp = await http.post(
                url.replace("generateContent", "streamGenerateContent"), json=body, headers=key
            )
            assert resp.status_code == 404
    finally:
        await via.aclose()
    with pytest.raises(ValueError, match="via=anthropic"):
        OracleVia(ScriptedModel([]), "gemini", cache=False)
