"""webfovea's AgentLab agent in BrowserGym's own loop: BrowserGym sets a MiniWoB task up on our
page (at the task's viewport, as its environment does), takes its own screenshot, hands the
observation to the agent's `obs_preprocessor` and `get_action`, turns the action string into
Playwright code with the agent's `action_set` and executes it, then `validate` gives the reward.
AgentLab itself is not installed (docs/browsergym.md); its loop does these same calls.

The model is scripted: it reads the goal and answers in webfovea's grammar at the point of the
element it wants, in the coordinates of the image it was sent — so the reward is only 1 when
the agent's sizing, parsing and coordinate mapping carry the point to the right element."""

from __future__ import annotations

import asyncio
import gc
import re
import threading
from typing import Any

import pytest

pytest.importorskip("browsergym.experiments.agent", reason="BrowserGym is an optional extra")
pytest.importorskip("browsergym.miniwob", reason="BrowserGym is an optional extra")

from browsergym.core.action.base import execute_python_code  # noqa: E402
from browsergym.core.observation import extract_screenshot  # noqa: E402
from browsergym.experiments.agent import Agent  # noqa: E402
from browsergym.experiments.loop import AbstractAgentArgs  # noqa: E402

from webfovea.driving.environment import make_environment  # noqa: E402
from webfovea.environments.browsergym.agentlab import WebfoveaAgentArgs  # noqa: E402
from webfovea.models.base import ModelInput, ModelReply, Usage  # noqa: E402
from webfovea.task import EnvironmentSpec  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="session")


class PointingSolver:
    """Finds its targets on the page (as the oracle does) and names them by a point of the
    image it was sent: page CSS px x BrowserGym's screenshot scale x the image's own scale."""

    def __init__(self, page: Any) -> None:
        self.page, self.done = page, 0

    def _plan(self, goal: str) -> list[tuple[str, str, str]]:
        if goal == "Click the button.":
            return [("click", "button", "")]
        if m := re.fullmatch(r'Click on the "(.+)" button\.', goal):
            return [("click", f"button:text-is('{m[1]}')", "")]
        if m := re.fullmatch(r'Enter "(.+)" into the text field and press Submit\.', goal):
            return [
                ("click", "input[type=text]", ""),
                ("type", "", m[1]),
                ("click", "button:text-is('Submit')", ""),
            ]
        raise AssertionError(f"no plan for {goal!r}")

    def _point(self, selector: str, image_size: tuple[int, int]) -> tuple[float, float]:
        box = self.page.locator(selector).first.bounding_box()
        scale = getattr(self.page, "_bgym_scale_factor", 1.0)
        view = self.page.viewport_size
        sx, sy = image_size[0] / (view["width"] * scale), image_size[1] / (view["height"] * scale)
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return cx * scale * sx, cy * scale * sy

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        assert "mouse_click" not in inp.system and "click(start_box=" in inp.system  # webfovea's grammar
        steps = self._plan(inp.task)
        if self.done >= len(steps):
            return ModelReply("Thought: done\nAction: finished(content='done')", Usage(1, 1))
        action, selector, text = steps[self.done]
        self.done += 1
        if action == "type":
            return ModelReply(f"Thought: type it\nAction: type(content='{text}')", Usage(1, 1))
        size = inp.images[-1].size
        x, y = await asyncio.to_thread(self._point, selector, size)
        return ModelReply(
            f"Thought: click {selector}\nAction: click(start_box='({x:.0f},{y:.0f})')", Usage(1, 1)
        )

    async def aclose(self) -> None:
        pass


def browsergym_loop(task: Any, page: Any, agent: Any, max_steps: int = 6) -> tuple[float, list[str]]:
    """The steps BrowserGym's environment and AgentLab's loop take, on `page`."""
    goal, _ = task.setup(page)
    chat = [{"role": "user", "message": goal}]
    actions, error = [], ""
    for _ in range(max_steps):
        obs = {"goal": goal, "screenshot": extract_screenshot(page), "last_action_error": error,
               "chat_messages": chat, "url": page.url, "dom_object": {}, "axtree_object": {}}  # fmt: skip
        action, info = agent.get_action(agent.obs_preprocessor(obs))
        assert "dom_object" not in agent.obs_preprocessor(obs) and info["extra_info"]["raw_reply"]
        actions.append(action)
        code = agent.action_set.to_python_code(action)
        error = ""
        try:
            execute_python_code(code, page, send_message_to_user=lambda t: chat.append(
                {"role": "assistant", "message": t}), report_infeasible_instructions=lambda t: None)  # fmt: skip
        except Exception as e:  # BrowserGym records it as last_action_error
            error = str(e)
        reward, done, _msg, _info = task.validate(page, chat)
        if done:
            return float(reward), actions
    return 0.0, actions


@pytest.mark.parametrize("task_id", ["miniwob.click-test", "miniwob.click-button", "miniwob.enter-text"])
async def test_the_agent_solves_miniwob_in_browsergyms_loop(session, task_id: str) -> None:
    env = make_environment(EnvironmentSpec(kind="browsergym", name=task_id, seed=3))
    page = await session.fresh_page()
    await page.set_viewport_size(env.task.viewport)  # BrowserGym's environment opens it at this size
    facade = env._facade(page)
    args = WebfoveaAgentArgs(make_model=lambda: PointingSolver(facade))
    agent = args.make_agent()
    assert isinstance(agent, Agent) and args.agent_name == "webfovea"
    assert isinstance(args, AbstractAgentArgs)  # what AgentLab's AgentArgs derive from
    try:
        reward, actions = await asyncio.to_thread(browsergym_loop, env.task, facade, agent)
    finally:
        await asyncio.to_thread(agent.close)
    assert reward == 1.0, actions
    assert all(re.fullmatch(r"(mouse_click\([\d.]+, [\d.]+\)|keyboard_type\('.+'\))", a) for a in actions), (
        actions
    )


async def test_a_reply_the_parser_refuses_is_a_noop_and_the_model_is_told(session) -> None:
    class Rambler:
        def __init__(self) -> None:
            self.seen: list[str | None] = []

        async def next_reply(self, inp: ModelInput) -> ModelReply:
            self.seen.append(inp.feedback)
            return ModelReply("I would click the button.", Usage(1, 1))

    env = make_environment(EnvironmentSpec(kind="browsergym", name="miniwob.click-test", seed=1))
    page = await session.fresh_page()
    await page.set_viewport_size(env.task.viewport)
    model = Rambler()
    agent = WebfoveaAgentArgs(make_model=lambda: model).make_agent()
    reward, actions = await asyncio.to_thread(browsergym_loop, env.task, env._facade(page), agent, 2)
    assert reward == 0.0 and actions == ["noop(500)", "noop(500)"]
    assert model.seen[0] is None and "Action" in (model.seen[1] or "")


async def test_a_dropped_agent_closes_its_model_and_close_is_idempotent() -> None:
    """AgentLab's and BrowserGym's loops never call `agent.close()`: a model's connections are
    closed when the agent is dropped after its episode."""

    class Closing:
        def __init__(self) -> None:
            self.closed = threading.Event()
            self.closes = 0

        async def next_reply(self, inp: ModelInput) -> ModelReply:
            return ModelReply("Action: wait()", Usage(1, 1))

        async def aclose(self) -> None:
            self.closes += 1
            self.closed.set()

    dropped, kept = Closing(), Closing()
    agent = WebfoveaAgentArgs(make_model=lambda: dropped).make_agent()
    del agent
    gc.collect()
    assert await asyncio.to_thread(dropped.closed.wait, 10)
    agent = WebfoveaAgentArgs(make_model=lambda: kept).make_agent()
    await asyncio.to_thread(agent.close)
    await asyncio.to_thread(agent.close)
    del agent
    gc.collect()
    await asyncio.sleep(0.2)
    assert kept.closes == 1 and dropped.closes == 1


async def test_agent_args_are_hashable_and_bad_switches_fail_when_written() -> None:
    args = WebfoveaAgentArgs(model="anthropic:claude-sonnet-4-6", disable=["verifier"])
    assert args.disable == ("verifier",) and hash(args.disable)  # AgentLab indexes by it
    assert args.make_config().conventions != WebfoveaAgentArgs().make_config().conventions
    with pytest.raises(ValueError, match="unknown component 'nope'"):
        WebfoveaAgentArgs(disable=["nope"])
    with pytest.raises(TypeError, match="not the string"):
        WebfoveaAgentArgs(disable="verifier")
