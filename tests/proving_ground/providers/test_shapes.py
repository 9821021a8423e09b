"""`via_shape`: the loopback Messages API answers the same decisions in every documented shape,
and the real client, the harness and a real page take each one right (run_task end to end)."""

from __future__ import annotations

import pytest

from tests.models.shape_support import GO_CSS, NAME_CSS, PAGES, point, read, values
from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.task import Task
from webfovea_proving_ground.oracle.via import OracleVia

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
ASYNC = pytest.mark.asyncio(loop_scope="session")

MODEL = "claude-sonnet-4-6"


def decisions() -> list[str]:
    (nx, ny), (gx, gy) = point(MODEL, NAME_CSS), point(MODEL, GO_CSS)
    return [
        f"Thought: type the name\nAction: fill(start_box='({nx},{ny})', content='Ada Lovelace')",
        f"Thought: save it\nAction: click(start_box='({gx},{gy})')",
        "Thought: saved\nAction: finished(content='saved')",
    ]


async def _run(session, tmp_path, shape: str):
    oracle = ScriptedModel(decisions())
    via = OracleVia(oracle, "anthropic", shape=shape)
    with serve_pages(PAGES) as site:
        task = Task(task_id="t", task="Save the name Ada Lovelace", website=site.url("/"))
        res = await run_task(task, tmp_path / "t", session=session, model=via, config=make_config())
    result, steps = read(tmp_path / "t")
    return res, steps, site.log, via.app.state.requests, oracle


@ASYNC
@pytest.mark.parametrize("shape", ["thought", "tool_only", "thinking", "paused"])
async def test_every_shape_saves_the_name(session, tmp_path, shape):
    res, steps, log, bodies, oracle = await _run(session, tmp_path, shape)
    assert res.status == "finished", res.error
    assert values(log, "/saved") == ["Ada Lovelace"] and oracle.calls == 3
    if shape == "paused":  # each turn paused once, then continued with the paused content
        assert len(bodies) == 6 and bodies[1]["messages"][-1]["role"] == "assistant"
    if shape == "thinking":  # the server checked every thinking block came back unchanged
        assert any(
            b.get("type") == "thinking"
            for m in bodies[-1]["messages"]
            if m["role"] == "assistant"
            for b in m["content"]
        )


@ASYNC
async def test_cut_once_is_never_executed_and_the_decision_comes_again(session, tmp_path):
    res, steps, log, bodies, oracle = await _run(session, tmp_path, "cut_once")
    assert res.status == "finished" and oracle.calls == 3
    assert steps[0]["outcome"] == "rejected" and "stop_reason=max_tokens" in steps[0]["rejection"]
    assert values(log, "/saved") == ["Ada Lovelace"] and "" not in values(log, "/typed")
    assert bodies[1]["max_tokens"] == 2 * bodies[0]["max_tokens"]


@ASYNC
async def test_refuse_once_runs_nothing_then_goes_on(session, tmp_path):
    res, steps, log, bodies, oracle = await _run(session, tmp_path, "refuse_once")
    assert res.status == "finished" and steps[0]["outcome"] == "rejected"
    assert any("refusal" in n for n in steps[0]["provider_notes"])
    assert values(log, "/saved") == ["Ada Lovelace"]


def test_an_unknown_shape_is_refused():
    with pytest.raises(ValueError, match="via_shape='bogus'"):
        OracleVia(ScriptedModel([]), "anthropic", shape="bogus")
