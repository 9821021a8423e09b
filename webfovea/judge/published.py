"""The judges as their authors publish them: `webjudge` (Online-Mind2Web's WebJudge) and
`naveval` (the NavEval of WebRetriever's public evaluator), with the inputs and stages their
public code gives them. Our variants, with more evidence, are `webjudge-webfovea` and
`naveval-webfovea` (judge/methods.py). docs/judge.md says where each fact comes from.

WebJudge (OSU-NLP-Group/Online-Mind2Web, `src/methods/webjudge_online_mind2web.py`, run by
`src/run.py`; MIT licence): (1) key points from the task alone; (2) EVERY screenshot of the
trajectory, in step order, scored 1-5 in a call of its own with the task and the key points
(an unreadable score counts 0); (3) the outcome from the task, the key points, the numbered
action history, the reasons of the screenshots scored 3 or more and those screenshots (the
first 50 of them), replied as `Thoughts: … Status: success|failure`. No requests, no URLs.

NavEval (Mininglamp-AI/WebRetriever, `eval/naveval.py`; no licence: facts only): a filter stage
(type, registrable domain, formatting, oldest dropped past 120,000 tokens: `--filter naveval`),
then one call on the task (cut at "### key points"), the URL trajectory (result.json `urls`,
de-duplicated in order), the filtered requests and the last screenshot. No executed actions,
no start URL, no re-ask, no answer question. Its code takes an arbitrary file as the last
screenshot (`os.listdir()[-1]`); we take the last by step number.

The prompt wording is ours in both (see docs/judge.md for why).
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from webfovea.judge.client import Part
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod, JudgeModel
from webfovea.judge.methods import call_model
from webfovea.judge.prompt import (
    NAVEVAL_SYSTEM,
    WEBJUDGE_IMAGE,
    WEBJUDGE_KEYPOINTS,
    WEBJUDGE_PUBLISHED_OUTCOME,
)
from webfovea.judge.verdict import VerdictError, parse_image_score, parse_verdict, parse_webjudge
from webfovea.models.base import ModelError

SCORE_THRESHOLD = 3  # src/run.py's --score_threshold default
MAX_IMAGE = 50  # WebJudge keeps at most the first 50 key screenshots
CONCURRENT_SCORES = 8  # screenshot calls in flight at once (its code sends all at once)


def key_points_of(reply: str) -> str:
    """The numbered list after a `Key Points:` heading (the whole reply when there is none)."""
    tail = re.split(r"\*{0,2}Key Points\*{0,2}:", reply or "", maxsplit=1, flags=re.IGNORECASE)[-1]
    return "\n".join(line.strip() for line in tail.replace("\n\n", "\n").splitlines()).strip()


def _reason(reply: str) -> str:
    """The screenshot's reason: what comes before its score, without the `Reasoning:` label."""
    text = re.split(r"\*{0,2}Score", reply or "", maxsplit=1)[0]
    text = re.sub(r"^[\s\d.]*\*{0,2}Reasoning\*{0,2}:\s*", "", text.strip())
    return " ".join(text.split())


async def _score(
    model: JudgeModel, task_id: str, text: str, shot: tuple[str, bytes], gate: asyncio.Semaphore
) -> tuple[int, str, dict[str, Any]]:
    """One screenshot's score (0 when the reply has none), its reason and the call's record."""
    name, data = shot
    async with gate:
        reply = await model.ask(task_id, WEBJUDGE_IMAGE, [("text", text), ("image", data)])
    score = parse_image_score(reply.text) or 0
    record = {
        "stage": f"image:{name}",
        "raw_reply": reply.text,
        "usage": reply.usage.to_json(),
        "score": score,
    }
    return score, _reason(reply.text), record


async def judge_webjudge_published(call: JudgeCall) -> Judged:
    model = _model(call)
    judged, ev, t0 = Judged(), call.evidence, time.monotonic()
    try:
        raw = await call_model(
            model, judged, ev.task_id, "key_points", WEBJUDGE_KEYPOINTS, [("text", f"Task: {ev.task}")]
        )
        points = key_points_of(raw)
        ask = f"Task: {ev.task}\n\nKey points for completing it:\n{points}\n\nThe screenshot follows."
        # Every screenshot, each in its own call, concurrently (as its code gathers them); the
        # records are put back in step order so a replay answers each the same reply.
        gate = asyncio.Semaphore(CONCURRENT_SCORES)
        scored = await asyncio.gather(*(_score(model, ev.task_id, ask, s, gate) for s in call.images))
        judged.calls += [record for _, _, record in scored]
        kept = [
            (shot, why)
            for shot, (score, why, _) in zip(call.images, scored, strict=True)
            if score >= SCORE_THRESHOLD
        ][:MAX_IMAGE]
        actions = "\n".join(f"{i}. {a}" for i, a in enumerate(ev.actions, start=1)) or "(none)"
        text = f"User task: {ev.task}\n\nKey points: {points}\n\nAction history:\n{actions}"
        if kept:
            reasons = "\n".join(f"{i}. {why}" for i, (_, why) in enumerate(kept, start=1))
            text += f"\n\nThe screenshots that may matter, in trajectory order, and why:\n{reasons}"
        parts: list[Part] = [("text", text), *(("image", data) for (_, data), _ in kept)]
        reply = await call_model(model, judged, ev.task_id, "outcome", WEBJUDGE_PUBLISHED_OUTCOME, parts)
        try:
            judged.verdict = parse_webjudge(reply)
        except VerdictError as e:  # its code asks once: an unreadable outcome is no verdict
            judged.error, judged.unparsed = f"unparsable outcome: {e}", True
    except ModelError as e:
        judged.error = f"judge model failed: {e}"
    judged.latency_s = round(time.monotonic() - t0, 3)
    return judged


async def judge_naveval_published(call: JudgeCall) -> Judged:
    model = _model(call)
    judged, ev, t0 = Judged(), call.evidence, time.monotonic()
    task = ev.task.split("### key points")[0].strip()
    urls = list(dict.fromkeys(u for u in call.record.urls if u))
    # Its user text renders the lists as Python does (`f"{list}"`); the layout of the lines is its.
    text = (
        f"- task: {task}\n- url trajectory: {urls!r}\n- network requests: {ev.requests!r}\n"
        f"- last screenshot: {ev.screenshot or '(none: the run left no screenshot)'}"
    )
    image = ev.image_bytes()
    parts: list[Part] = [("text", text), *([("image", image)] if image else [])]
    try:
        reply = await call_model(model, judged, ev.task_id, "naveval", NAVEVAL_SYSTEM, parts)
        try:
            judged.verdict = parse_verdict(reply)
        except VerdictError as e:  # its code reads the reply once
            judged.error, judged.unparsed = f"unparsable verdict: {e}", True
    except ModelError as e:
        judged.error = f"judge model failed: {e}"
    judged.latency_s = round(time.monotonic() - t0, 3)
    return judged


def _model(call: JudgeCall) -> JudgeModel:
    if call.model is None:
        raise ValueError("this judge method needs a judge model")
    return call.model


WEBJUDGE = JudgeMethod(
    name="webjudge",
    help="Online-Mind2Web's WebJudge as published: key points; every screenshot scored 1-5; "
    "the outcome from the actions and the screenshots scored 3+ (no requests)",
    prompt=WEBJUDGE_PUBLISHED_OUTCOME,
    judge=judge_webjudge_published,
    images=True,
)
NAVEVAL = JudgeMethod(
    name="naveval",
    help="NavEval as WebRetriever's public code runs it: NavEval's request filter, then one call "
    "on the task, the URLs, the requests and the last screenshot (no actions)",
    prompt="naveval-published\n" + NAVEVAL_SYSTEM,
    judge=judge_naveval_published,
    filter="naveval",
)
METHODS = (NAVEVAL, WEBJUDGE)
