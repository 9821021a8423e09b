"""The decision-maker's input under each contract (seed 003, Appendix A.2):

- text (Table 6): a header — goal, last action, last action error, URL — and the accessibility
  tree filtered as Table 20 says (gym/grammar.py `table20_text`), every addressable node with its
  bid; the system prompt gives the bid grammar (BrowserGym's own description of the action set);
- gui: the goal and the screenshot only; the last action, its error and the URL go to the log,
  not to the model (A.2.2); the system prompt gives the coordinate grammar and the view's
  coordinate space (pixels, or the 0–1000 grid of the family).
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.gym.grammar import Contract, action_set
from webfovea_breakingweb.harnesses.conversation import Message

ROLE = (
    "You are a web agent. Complete the user's task on the web page. Answer with exactly one "
    "action, a Python call, per step. When the task is done, or asks for information, say so "
    "with send_msg_to_user(text); if it cannot be done, report_infeasible(reason)."
)


def system_prompt(contract: Contract) -> str:
    grammar = action_set(contract.harness).describe(with_long_description=False, with_examples=True)
    if contract.harness == "text":
        where = "Name every element by its bid, a quoted string from the current observation: click('a51')."
    else:
        vp = contract.viewport
        where = (
            f"Points are on a 0–{vp.grid} grid over the screenshot on both axes."
            if vp.grid
            else f"Points are pixels of the screenshot ({vp.width} × {vp.height})."
        )
    return f"{ROLE}\n{where}\n\n# Actions\n{grammar}"


def text_observation(goal: str, obs: dict[str, Any]) -> Message:
    header = [
        f"## goal: {goal}",
        f"## last_action: {obs.get('last_action') or ''}",
        f"## last_action_error: {obs.get('last_action_error') or ''}",
        f"## url: {obs.get('url') or ''}",
    ]
    return Message("user", "\n".join([*header, str(obs.get("axtree_txt") or "")]))


def gui_observation(goal: str, obs: dict[str, Any]) -> Message:
    return Message("user", f"## goal: {goal}", image=obs["screenshot"])


def observation(contract: Contract, goal: str, obs: dict[str, Any]) -> Message:
    return (text_observation if contract.harness == "text" else gui_observation)(goal, obs)


def fact(action: str, obs: dict[str, Any]) -> str:
    """What the fact summary keeps of a dropped turn: the action, its error, where it led."""
    error = str(obs.get("last_action_error") or "").strip().splitlines()
    return f"{action} -> {obs.get('url') or ''}" + (f" (error: {error[0][:160]})" if error else "")
