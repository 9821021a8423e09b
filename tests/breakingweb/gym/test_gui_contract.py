"""The GUI-only contract through BrowserGym's own environment (headless chromium): the screenshot
has the model family's viewport (Table 7), the observation carries no DOM or accessibility
tree, bid actions are refused, and a point lands where the model meant it — on the 0–1000 grid
for Gemini (rescaled at action time, down to the backend's state), in pixels for Claude; the
task's `cheat` (the oracle's plan) finishes an episode as an agent would."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("browsergym.experiments.agent", reason="BrowserGym is an optional extra")

import gymnasium as gym  # noqa: E402
from browsergym.experiments.agent import default_obs_preprocessor  # noqa: E402

import webfovea_breakingweb.gym  # noqa: E402, F401 - registers the environments
from webfovea_breakingweb.gym.plan_steps import locate  # noqa: E402
from webfovea_breakingweb.gym.viewports import VIEWPORTS  # noqa: E402
from webfovea_breakingweb.obligations import score_state  # noqa: E402

ENV_ID = "browsergym/breakingweb.calendar-accept-02"
TAB = {"selector": 'nav.tabs a[data-view="invites"]'}
ACCEPT = {"selector": '#invites tr[data-id="I-0024"] .accept'}


def _centre(e: Any, loc: dict[str, str]) -> tuple[float, float]:
    box = locate(e.unwrapped.page, loc).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _as_model_sees(family: str, x: float, y: float) -> tuple[int, int]:
    """The point a model of the family writes for pixel (x, y) of its screenshot."""
    vp = VIEWPORTS[family]
    if vp.grid is None:
        return round(x), round(y)
    return round(x * vp.grid / vp.width), round(y * vp.grid / vp.height)


@pytest.mark.parametrize("family", ["gemini", "claude"])
def test_the_screenshot_has_the_familys_viewport_and_points_land(family: str) -> None:
    e = gym.make(ENV_ID, task_kwargs={"harness": "gui", "model_family": family})
    try:
        obs, _ = e.reset(seed=0)
        vp = VIEWPORTS[family]
        assert obs["screenshot"].shape == (vp.height, vp.width, 3)
        # No DOM, tree or element list, in shapes BrowserGym's own agents still read.
        seen = default_obs_preprocessor(obs)
        assert seen["axtree_txt"] == seen["dom_txt"] == seen["pruned_html"] == ""
        assert obs["axtree_txt"] == "" and obs["extra_element_properties"] == {}

        obs, *_ = e.step("click('17')")
        assert "not in the gui contract's grammar" in obs["last_action_error"]
        outside = vp.grid or vp.width
        obs, *_ = e.step(f"mouse_click({outside + 5}, 10)")
        assert "outside the screenshot" in obs["last_action_error"]

        obs, *_ = e.step("mouse_click({}, {})".format(*_as_model_sees(family, *_centre(e, TAB))))
        assert obs["last_action_error"] == ""
        page = e.unwrapped.page
        assert page.locator("#invites").is_visible()
        if vp.grid is None:
            # Pixels land as they are. The rest of this episode is the task's own `cheat` (the
            # oracle's plan on the page, its answer in the chat), scored as any episode.
            u = e.unwrapped
            u.task.cheat(u.page, u.chat.messages)
            obs, reward, done, _, info = e.step("noop(0)")
            assert done and reward == 1.0 and info["task_info"]["passed"]
            return

        # The accept button is below the fold: scroll by the wheel where the model points, then click it.
        mid = _as_model_sees(family, vp.width / 2, vp.height / 2)
        dy = round(_centre(e, ACCEPT)[1] - vp.height / 2)
        obs, *_ = e.step(f"scroll_at({mid[0]}, {mid[1]}, 0, {dy})")
        obs, reward, *_ = e.step("mouse_click({}, {})".format(*_as_model_sees(family, *_centre(e, ACCEPT))))
        assert obs["last_action_error"] == ""
        obs, reward2, done, _, info = e.step("send_msg_to_user('done')")
        assert done and reward + reward2 == 1.0 and info["task_info"]["passed"]

        u = e.unwrapped
        with u.task._handle.control() as control:
            diff = control.diff(u.task.session_id)["diff"]
        extra = u.task.task.model_extra
        assert score_state(diff, extra["obligations"], extra["noise"]).passed
    finally:
        e.close()
