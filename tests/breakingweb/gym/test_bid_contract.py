"""BreakingWeb through BrowserGym's own environment (sync Playwright, headless chromium), text
contract: a BrowserGym agent naming elements by bid solves a clean task and its intervention
variant, and every episode's rewards add up to the backend evaluator's verdict, read here from
the control plane; a numeric bid, or a bid the observation did not show, is refused in
`last_action_error` and never reaches the page or the backend."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("browsergym.experiments.agent", reason="BrowserGym is an optional extra")

import gymnasium as gym  # noqa: E402

import webfovea_breakingweb.gym  # noqa: E402, F401 - registers the environments
from webfovea_breakingweb.gym.grammar import shown_bids  # noqa: E402
from webfovea_breakingweb.gym.ids import stored_ids  # noqa: E402
from webfovea_breakingweb.gym.plan_steps import bid_of  # noqa: E402
from webfovea_breakingweb.gym.plan_walker import PlanBidAgent  # noqa: E402
from webfovea_breakingweb.obligations import score_state  # noqa: E402
from webfovea_breakingweb.tasks import stateful_tasks  # noqa: E402

TASK = "calendar-accept-02"  # accept one invitation; its accept button is below the fold
FAMILY = "transient_5xx"  # the first submit answers 503
TAB = {"selector": 'nav.tabs a[data-view="invites"]'}
ACCEPT = {"selector": '#invites tr[data-id="I-0024"] .accept'}


def _backend(e: Any) -> tuple[list[dict[str, Any]], bool]:
    """The session's canonical diff and the evaluator's verdict on it, from the control plane."""
    u = e.unwrapped
    with u.task._handle.control() as control:
        diff = control.diff(u.task.session_id)["diff"]
    extra = u.task.task.model_extra
    return diff, score_state(diff, extra["obligations"], extra["noise"]).passed


def _episode(e: Any, obs: Any = None, max_steps: int = 10) -> tuple[list[float], list[str], dict[str, Any]]:
    """BrowserGym's experiment loop, as browsergym.experiments runs an `Agent` (from a reset,
    or from `obs` of an episode under way)."""
    if obs is None:
        obs, _ = e.reset(seed=0)
    u = e.unwrapped
    agent = PlanBidAgent(u.task.task.model_extra["plan"], lambda: u.page)
    rewards, actions, info = [], [], {}
    for _ in range(max_steps):
        action, _ = agent.get_action(agent.obs_preprocessor(obs))
        obs, reward, terminated, truncated, info = e.step(action)
        assert obs["last_action_error"] == "", obs["last_action_error"]
        rewards.append(reward)
        actions.append(action)
        if terminated or truncated:
            break
    return rewards, actions, info


def _accepted(diff: list[dict[str, Any]]) -> bool:
    return any(d["id"] == "I-0024" and d.get("field") == "status" and d["after"] == "accepted" for d in diff)


def test_the_intervention_variant_is_scored_the_same_way() -> None:
    # A calendar task paired with this family (gym/ids.json: an extension app's pairing); the
    # plan walker reads the hand-written calendar page.
    stored = stored_ids()
    changing = {t for t, st in stateful_tasks(int(stored["seed"])).items() if st.state_changing}
    task = next(
        t
        for t, short in stored["tasks"].items()
        if short == FAMILY and t in changing and t.startswith("calendar-")
    )
    e = gym.make(f"browsergym/breakingweb.{task}.{FAMILY}")
    try:
        rewards, actions, _ = _episode(e)
        diff, passed = _backend(e)
        assert e.unwrapped.task.task.model_extra["family"] == f"network/{FAMILY}"
        assert passed and diff and sum(rewards) == 1.0
        # The 503 was really served: the agent had to click accept a second time.
        clicks = [a for a in actions if a.startswith("click(")]
        assert len(clicks) == len(set(clicks)) + 1
    finally:
        e.close()


def test_refused_bids_never_run_then_bids_solve_the_clean_task() -> None:
    env = gym.make(f"browsergym/breakingweb.{TASK}")
    try:
        obs, _ = env.reset(seed=0)
        page = env.unwrapped.page
        obs, *_ = env.step(f"click({bid_of(page, TAB)!r})")
        accept = bid_of(page, ACCEPT)
        assert accept not in shown_bids(obs["axtree_txt"])  # in the DOM, out of view: not shown

        # BrowserGym alone would scroll to this button and click it: refused here, never run.
        obs, reward, *_ = env.step(f"click({accept!r})")
        assert "is not in the current observation" in obs["last_action_error"]
        obs, reward, *_ = env.step(f"click({int(accept)})")
        assert "is not a quoted string" in obs["last_action_error"]
        obs, reward, *_ = env.step("mouse_click(10, 10)")
        assert "not in the text contract's grammar" in obs["last_action_error"]
        diff, _ = _backend(env)
        assert diff == [] and reward == 0.0
        assert page.locator('#invites tr[data-id="I-0024"] td.status').inner_text() != "accepted"

        # The same episode, on: the agent scrolls to the button and names what it was shown.
        rewards, actions, info = _episode(env, obs)
        diff, passed = _backend(env)
        assert passed and _accepted(diff)
        assert sum(rewards) == 1.0 and rewards[0] == 0.0  # nothing changed before the accept
        assert info["task_info"]["done"] and info["task_info"]["passed"]
        assert any(a.startswith("scroll(") for a in actions)
        assert all(a.startswith(("click('", "scroll(", "send_msg_to_user(")) for a in actions)
    finally:
        env.close()
