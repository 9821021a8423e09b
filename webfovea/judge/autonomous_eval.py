"""Autonomous Eval (Pan et al. 2024, "Autonomous Evaluation and Refinement of Digital Agents")
as its authors' public code runs it: `--method autonomous-eval`.

Recipe (Berkeley-NLP/Agent-Eval-Refine, `agent_eval/agent_eval/eval/prompts.py`
`build_final_eval_v3_final_prompt_gpt4v` and `eval/evaluator.py` `final_eval_v3_gpt4v`, the
end-to-end GPT-4V evaluator; Online-Mind2Web's port `src/methods/automomous_eval.py` sends the
same): one call — a system prompt that names three kinds of task (information seeking: the reply
must hold the information; site navigation and content modification: judged from the actions and
the final page), then the user's intent, the numbered action history and the last screenshot. The
evaluator is handed the agent's response but its prompt never includes it, so neither do we. The
reply is two lines, `Thoughts: …` / `Status: "success"|"failure"`; the first `Status:` line
decides. The code is BSD-3-licensed; the prompt below is ours, restating its criteria.
"""

from __future__ import annotations

from webfovea.judge.client import Part
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod
from webfovea.judge.one_call import ask_once
from webfovea.judge.verdict import parse_status_line

SYSTEM = """You assess a web navigation agent, which helps a person get a task done on a website. You are
given the person's intent, the agent's action history, the state of the web page at the end and the
agent's reply to the person. Decide whether the agent's execution succeeded.

Tasks come in three kinds:
1. Information seeking: the person wants some information from the site (a product's details, its
reviews, something on a map, a comparison of routes, ...). The agent's reply must give that information
or say plainly that it is not available; a reply that only reports an error or an exception is a failure.
Check too that the actions were enough to find it: asked for a shop's most-searched items, the agent has
to sort the items by searches before naming the top ones; without that sort the task most likely failed.
2. Site navigation: the person wants to reach a particular page. Judge from the action history and the
final page; the agent's reply does not matter.
3. Content modification: the person wants some content or setting changed. Judge from the action history
and the final page; the agent's reply does not matter.

IMPORTANT: reply in exactly two lines:
Thoughts: <your reasoning>
Status: "success" or "failure\""""


def user_text(task: str, actions: list[str]) -> str:
    """The intent, the action history numbered `1: …` as the authors' code numbers it."""
    history = "".join(f"{i}: {a}\n" for i, a in enumerate(actions, start=1))
    return (
        f"User Intent: {task}\n\nAction History:\n{history}\nThe image is the last snapshot of the web page."
    )


def parts_of(call: JudgeCall) -> list[Part]:
    ev = call.evidence
    image = ev.image_bytes()
    return [("text", user_text(ev.task, ev.actions)), *([("image", image)] if image else [])]


async def judge_autonomous_eval(call: JudgeCall) -> Judged:
    return await ask_once(call, "autonomous_eval", SYSTEM, parts_of(call), parse_status_line)


AUTONOMOUS_EVAL = JudgeMethod(
    name="autonomous-eval",
    help="Autonomous Eval (Pan et al. 2024) as published: one call on the intent, the numbered "
    "executed actions and the last screenshot; Status: success|failure",
    prompt="autonomous-eval\n" + SYSTEM,
    judge=judge_autonomous_eval,
)
METHODS = (AUTONOMOUS_EVAL,)
