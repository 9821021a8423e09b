"""BrowserGym's own environment with the harness contract of the task in front of the agent.

`BreakingWebEnv` is `BrowserEnv` with two additions, both about the bytes the agent exchanges,
never about the page:
- every action passes the contract's check (grammar.py) before BrowserGym maps and runs it; a
  refused action is never executed — BrowserGym observes, validates and returns as after any
  failed action, with the reason in `last_action_error`. The check sits in `step`, not in
  `action_mapping`, so it holds whatever action mapping the agent brings (AgentLab passes its
  own);
- the observation follows the contract (observe.py: only what the contract shows is
  extracted): `text` adds `axtree_txt`, the accessibility tree filtered as Table 20 says, whose
  bids are the only ones an action may name, and shows no screenshot; `gui` shows the screenshot
  and no DOM, accessibility tree or element list (Appendix A.2.2).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from browsergym.core.env import BrowserEnv
from browsergym.core.spaces import Unicode

from webfovea_breakingweb.gym.chromium import link_system_chromium
from webfovea_breakingweb.gym.grammar import ActionRefused, action_set, shown_bids, table20_text
from webfovea_breakingweb.gym.observe import observe
from webfovea_breakingweb.gym.task import BreakingWebTask


class BreakingWebEnv(BrowserEnv):  # type: ignore[misc]
    """A BrowserGym environment for one registered BreakingWeb task (registration.py)."""

    _shown: frozenset[str] = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        link_system_chromium()  # before Playwright's driver starts (chromium.py says why)
        # Without an agent's own mapping, actions are read in the contract's grammar (BrowserGym's
        # default set has no coordinate actions); an agent's (AgentLab passes one) wins.
        kwargs.setdefault("action_mapping", self._contract_mapping)
        super().__init__(*args, **kwargs)
        # The text contract's Table 20 text, in every observation (empty under the GUI contract).
        base: gym.spaces.Dict = self.observation_space  # type: ignore[has-type]
        self.observation_space = gym.spaces.Dict({**base.spaces, "axtree_txt": Unicode()})

    @property
    def bw_task(self) -> BreakingWebTask:
        if not isinstance(self.task, BreakingWebTask):
            raise RuntimeError("reset() the environment first")
        return self.task

    def _contract_mapping(self, action: str) -> str:
        return str(action_set(self.bw_task.contract.harness).to_python_code(action))

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        try:
            checked = self.bw_task.contract.check(action, self._shown)
        except ActionRefused as e:
            self.last_action = action
            info, _, _ = self.pre_step()
            info["action_refused"] = str(e)
            self.last_action_error = f"ActionRefused: {e}"
            return self.post_step(info)  # type: ignore[no-any-return]
        return super().step(checked)  # type: ignore[no-any-return]

    def _get_obs(self) -> dict[str, Any]:
        harness = self.bw_task.contract.harness
        if self.use_raw_page_output:
            # The agent reads the page itself (AgentLab's raw mode): the bids it may name are still
            # those the text contract would have shown, extracted (and marked) here.
            obs: dict[str, Any] = super()._get_obs()
            text = table20_text(observe(self, "text")) if harness == "text" else ""
        else:
            obs = observe(self, harness)
            text = table20_text(obs) if harness == "text" else ""
        obs["axtree_txt"] = text
        self._shown = shown_bids(text)
        return obs
