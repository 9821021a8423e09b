"""WebVoyager's evaluator (He et al. 2024, "WebVoyager: Building an End-to-End Web Agent with
Large Multimodal Models", its GPT-4V auto-evaluation) as published: `--method webvoyager`.

Recipe (MinorJerry/WebVoyager, `evaluation/auto_eval.py`, run by `evaluation/run_eval.sh`;
Apache-2.0): one call — a system prompt presenting the three components (the task instruction,
the result screenshots, the result response) and how to weigh them (the screenshots are authentic;
where the response contradicts them the screenshots win; what the response says that the
screenshots do not show is believed; a multi-part task with a part missing fails), ending on a
verdict `SUCCESS` or `NOT SUCCESS`; then a user turn of the text `TASK: … / Result Response: … /
K screenshots at the end: `, the LAST K screenshots in step order, and the text `Your verdict:`.
K is `--max_attached_imgs`: 15 in `run_eval.sh` and the README (the argparse default is 1). A run
without an answer (no `ANSWER` action) is scored a failure without asking. The reply: `NOT
SUCCESS` anywhere is a failure, else `SUCCESS` anywhere a success, else no verdict. No actions, no
thoughts, no URLs. The prompt below is ours, restating its rules; the labels of the user turn
and the two verdict words are kept, since the verdict is read from them.
"""

from __future__ import annotations

from webfovea.judge.client import Part
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod
from webfovea.judge.one_call import ask_once
from webfovea.judge.verdict import Verdict, parse_success_token

LAST_K = 15  # run_eval.sh's --max_attached_imgs

SYSTEM = """You are an evaluator. Three things are put before you:

1. The web task instruction: a specific request in natural language for something to be done online, such
as searching, checking a piece of information, comparing prices, checking availability, or any other
action on a particular web service (Amazon, Apple, ArXiv, BBC News, Booking and the like).
2. The result screenshots: pictures of the screen showing the result, or an intermediate state, of doing
the task. They are the visual proof of what was done.
3. The result response: the text answer given once the task was carried out.

-- You do NOT need to act on any web page (no booking, no searching).
-- Do NOT assume anything the screenshots do not show when you compare them with the instruction.
-- Your job is to check the instruction carefully against what the screenshots and the response show, and
to judge whether what was done matches the instruction.
-- An instruction may hold several tasks (find a garage AND summarise its reviews); failing any one of
them, such as giving no summary, makes the whole unsuccessful.
-- The screenshots are authentic; the response was written by a language model at the end of browsing and
may disagree with them. When the response contradicts the screenshots, the screenshots prevail. When the
response states something the screenshots do not show, believe the response.

Explain how you reach your evaluation, then give a definite verdict on whether the task was accomplished:
either 'SUCCESS' or 'NOT SUCCESS'."""

NO_ANSWER = "the agent gave no answer: WebVoyager's evaluator scores such a run a failure without asking"


def user_parts(task: str, answer: str, images: list[bytes], k: int = LAST_K) -> list[Part]:
    """Its user turn: the text (the count is K, as its code writes it, even when fewer
    screenshots exist), the last K screenshots in step order, then `Your verdict:`."""
    text = f"TASK: {task}\nResult Response: {answer}\n{k} screenshots at the end: "
    return [("text", text), *(("image", data) for data in images[-k:]), ("text", "Your verdict:\n")]


async def judge_webvoyager(call: JudgeCall) -> Judged:
    answer = (call.record.answer or "").strip()
    if not answer:
        return Judged(verdict=Verdict(all_passed=False, score=0.0, reasoning=NO_ANSWER))
    images = [data for _, data in call.images]
    parts = user_parts(call.evidence.task, answer, images)
    return await ask_once(call, "webvoyager", SYSTEM, parts, parse_success_token)


WEBVOYAGER = JudgeMethod(
    name="webvoyager",
    help=f"WebVoyager's evaluator (He et al. 2024) as published: one call on the task, the agent's "
    f"answer and the last {LAST_K} screenshots; SUCCESS / NOT SUCCESS",
    prompt="webvoyager\n" + SYSTEM,
    judge=judge_webvoyager,
    images=True,
    reads=("answer",),
)
METHODS = (WEBVOYAGER,)
