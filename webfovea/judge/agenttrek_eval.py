"""AgentTrek Eval (Xu et al. 2024, "AgentTrek: Agent Trajectory Synthesis via Guiding Replay
with Web Tutorials": the evaluator that keeps or drops its replayed trajectories) as published:
`--method agenttrek-eval`.

Recipe: AgentTrek's own repository (xlang-ai/AgentTrek) holds no evaluator code; the public one
is Online-Mind2Web's port (OSU-NLP-Group/Online-Mind2Web, `src/methods/agenttrek_eval.py`, run
by `src/run.py` as `AgentTrek_eval`; MIT), which the WebRetriever comparison most likely used.
One call: a system prompt with lenient criteria (most of the trajectory effective is enough, a
final save or post may be missing, over 8 correct actions is a success, one of two subtasks is
enough, ...), then the task goal and the trajectory as `Thought i` / `Action i` pairs — the
agent's OWN REASONING with each executed action, the only published judge here that reads
thoughts — and the last screenshot. The reply is `Thoughts: …` / `Status: "success"|"failure"`.
The prompt below is ours, restating its criteria.
"""

from __future__ import annotations

from webfovea.judge.client import Part
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod
from webfovea.judge.one_call import ask_once
from webfovea.judge.verdict import parse_status_line

SYSTEM = """You evaluate a web navigation agent, which helps a person get a task done on a website. Given the
task goal and the agent's trajectory, decide whether the agent's execution succeeded.

Criterion: is the trajectory effective, and does it serve the goal?

Instructions:
1. Go through the agent's reasoning and actions step by step.
2. An agent stuck at the very first login, unable to sign in to the site at the start, has failed.
3. Decide from the trajectory whether the goal was reached. A task may count as successful when most of
the trajectory is effective.
4. Agents sometimes keep acting after the task is done and repeat actions; such attempts after a series of
correct actions do not spoil it: the task is a success if the correct actions were effective and came close
to the goal.
5. An agent that loops early, before getting anywhere near the goal (for example stuck before its third
step), has failed.
6. Changing an account password is not done when the agent stops at trying to open the account settings.
7. A trajectory with more than 8 correct actions may be counted a success.
8. A final save is not required: an agent that did most things right and only forgot to save has succeeded.
9. When the task has two subtasks, completing one of them is still a success (asked to update a name and a
birthday, updating the name is enough).
10. Posting a review succeeds once the review is written and the agent has reached the step that posts
it; the post button need not be clicked.
11. There is no printer: a printing task succeeds once the agent reaches the print button.
12. A task already complete in the initial state, where the agent therefore did nothing, is a success.

IMPORTANT:
1. In the trajectory each action follows the reasoning that led to it (the agent's observation and thought).
2. Your reply must contain:
Thoughts: <your reasoning>
Status: "success" or "failure\""""


def trajectory_text(thoughts: list[str], actions: list[str]) -> str:
    """`Thought i` / `Action i` pairs, blank lines inside a thought or action folded as its code does.

    Paired step by step (its code zips them: a step without an action — the final answer —
    brings no thought either)."""
    blocks = [
        f"Thought {i}: {t.replace(chr(10) * 2, ' ')}\nAction {i}: {a.replace(chr(10) * 2, ' ')}"
        for i, (t, a) in enumerate(zip(thoughts, actions, strict=False), start=1)
    ]
    return "\n\n".join(blocks)


def user_text(task: str, thoughts: list[str], actions: list[str]) -> str:
    return (
        f"The goal of the task: {task}\n\nTrajectory:\n{trajectory_text(thoughts, actions)}\n\n"
        "The image is the last snapshot of the web page."
    )


def parts_of(call: JudgeCall) -> list[Part]:
    ev = call.evidence
    # The record's thoughts are aligned with its actions (judge/folder.py); the evidence's
    # actions are the record's.
    thoughts = list(call.record.thoughts) + [""] * (len(ev.actions) - len(call.record.thoughts))
    image = ev.image_bytes()
    return [("text", user_text(ev.task, thoughts, ev.actions)), *([("image", image)] if image else [])]


async def judge_agenttrek_eval(call: JudgeCall) -> Judged:
    return await ask_once(call, "agenttrek_eval", SYSTEM, parts_of(call), parse_status_line)


AGENTTREK_EVAL = JudgeMethod(
    name="agenttrek-eval",
    help="AgentTrek Eval (Xu et al. 2024) as published: one call on the task, each executed action "
    "with the agent's thought, and the last screenshot; Status: success|failure",
    prompt="agenttrek-eval\n" + SYSTEM,
    judge=judge_agenttrek_eval,
    reads=("thoughts",),
)
METHODS = (AGENTTREK_EVAL,)
