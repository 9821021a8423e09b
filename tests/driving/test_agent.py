"""The agent loop end to end: a real HTTP model client, real Chromium, every exit path recorded."""

import asyncio
import json

import pytest
from PIL import Image

from tests.models.fake_llm import error, fake_llm, openai_ok
from tests.support.scripted import ScriptedModel as _Scripted
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.models.base import Usage
from webfovea.task import Task

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<html><body style="margin:0">
<button id=b style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit'); document.getElementById('out').textContent='Total: 42'">Show total</button>
<div id=out style="position:absolute;left:100px;top:100px;font-size:30px">Total: ?</div></body></html>"""

CLICK = "Thought: I will press the button.\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')"
FINISH = "Thought: The total is shown.\nAction: finished(content='42')"


class ScriptedModel(_Scripted):
    def __init__(self, replies: list[str], on_call=None) -> None:  # type: ignore[no-untyped-def]
        super().__init__(replies, then="Thought: wait\nAction: wait()", usage=Usage(5, 1), on_call=on_call)


def read(task_dir):
    result = json.loads((task_dir / "result.json").read_text())
    steps = [json.loads(line) for line in (task_dir / "trajectory.jsonl").read_text().splitlines()]
    return result, steps


async def test_openai_model_with_retries_end_to_end(session, tmp_path):
    script = [
        error(429, "slow down", **{"Retry-After": "1"}),
        error(503, "busy"),
        openai_ok(CLICK, 100, 20),
        openai_ok(FINISH, 120, 10),
    ]
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site, fake_llm(script) as llm:
        task = Task(task_id="t1", task="What is the total?", website=site.url("/"))
        res = await run_task(
            task,
            tmp_path / "t1",
            session=session,
            model="openai:test-model",
            # The script holds the agent's replies only: a verifier call would take more.
            config=make_config(disable=["verifier"]),
            base_url=llm.base_url,
            model_options={"budget_s": 30},
        )
        assert "/hit" in site.log  # the click really landed on the button
    assert llm.attempts == 4
    result, steps = read(tmp_path / "t1")
    assert result["status"] == "finished" and result["answer"] == "42" and res.answer == "42"
    usage = result["usage"]
    assert result["steps"] == 2
    assert {k: usage[k] for k in ("prompt_tokens", "completion_tokens", "model_calls")} == {
        "prompt_tokens": 220,
        "completion_tokens": 30,
        "model_calls": 2,
    }
    # The server gave no cache figures: nothing may be invented for it.
    assert usage["cache_read_input_tokens"] == 0 and usage["cache_creation_input_tokens"] == 0
    assert steps[0]["action"]["name"] == "click" and {
        k: steps[0]["usage"].get(k) for k in ("prompt_tokens", "completion_tokens")
    } == {"prompt_tokens": 100, "completion_tokens": 20}
    x, y = steps[0]["executed_point"]
    assert abs(x - 900) < 2 and abs(y - 640) < 2  # 675/1440*1920, 480/810*1080
    marked = Image.open(tmp_path / "t1" / steps[0]["screenshot_marked"])
    sent = Image.open(tmp_path / "t1" / steps[0]["screenshot"])
    assert sent.size == (1440, 810)
    assert marked.getpixel((675, 480))[:3] == (230, 20, 20)  # red dot at the executed point
    assert sent.getpixel((675, 480))[:3] != (230, 20, 20)


async def test_model_that_keeps_failing_ends_as_recorded_model_error(session, tmp_path):
    with serve_pages({"/": PAGE}) as site, fake_llm([], default=error(503, "down")) as llm:
        task = Task(task_id="t2", task="x", website=site.url("/"))
        res = await run_task(
            task,
            tmp_path / "t2",
            session=session,
            model="openai:m",
            config=make_config(),
            base_url=llm.base_url,
            model_options={"max_attempts": 2, "budget_s": 5, "base_delay_s": 0.1},
        )
    result, steps = read(tmp_path / "t2")
    assert res.status == result["status"] == "model_error" and "503" in result["error"]
    assert result["steps"] == 0 and steps == []


async def test_step_budget_and_unparseable_replies_recorded(session, tmp_path):
    with serve_pages({"/": PAGE}) as site:
        model = ScriptedModel(["garbage with no action", "Thought: x\nAction: goto(url='http://x')"])
        task = Task(task_id="t3", task="x", website=site.url("/"))
        res = await run_task(
            task, tmp_path / "t3", session=session, model=model, config=make_config(max_steps=3)
        )
    result, steps = read(tmp_path / "t3")
    assert res.status == result["status"] == "max_steps" and result["steps"] == 3
    assert steps[0]["rejection"] and steps[1]["rejection"] and "URL" in steps[1]["feedback"]


async def test_browser_lost_mid_task_is_a_recorded_failure(tmp_path):
    from webfovea.browser.session import BrowserSession

    session = await BrowserSession.launch()

    async def crash(n, inp):
        if n == 2:
            await session.browser.close()

    try:
        with serve_pages({"/": PAGE}) as site:
            task = Task(task_id="t4", task="x", website=site.url("/"))
            res = await run_task(
                task,
                tmp_path / "t4",
                model=ScriptedModel([CLICK, CLICK], crash),
                config=make_config(),
                session=session,
            )
    finally:
        await session.close()
    result, _ = read(tmp_path / "t4")
    assert res.status == result["status"] == "browser_error" and "browser" in result["error"]


async def test_cancelled_run_writes_interrupted_result(session, tmp_path):
    started = asyncio.Event()

    async def hang(n, inp):
        started.set()
        await asyncio.sleep(60)

    with serve_pages({"/": PAGE}) as site:
        task = Task(task_id="t5", task="x", website=site.url("/"))
        job = asyncio.create_task(
            run_task(
                task, tmp_path / "t5", session=session, model=ScriptedModel([], hang), config=make_config()
            )
        )
        await asyncio.wait_for(started.wait(), 30)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
    result, _ = read(tmp_path / "t5")
    assert result["status"] == "interrupted"


async def test_replay_reproduces_a_recorded_run(session, tmp_path):
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site:
        task = Task(task_id="t6", task="x", website=site.url("/"))
        await run_task(
            task,
            tmp_path / "first" / "t6",
            session=session,
            model=ScriptedModel([CLICK, FINISH]),
            config=make_config(),
        )
        site.log.clear()
        res = await run_task(
            task,
            tmp_path / "again" / "t6",
            session=session,
            model=f"replay:{tmp_path / 'first'}",
            config=make_config(),
        )
        assert "/hit" in site.log
    assert res.status == "finished" and res.answer == "42"
