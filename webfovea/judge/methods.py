"""Our variants of the judges that call a model: `naveval-webfovea` (NavEval's one call on the
four channels, plus the executed actions, the start URL and, in Protocol III, the answer) and
`webjudge-webfovea` (WebJudge's stages, with the request evidence in its outcome and only the
last screenshots scored). The methods as their authors publish them are judge/published.py.
Each returns a `Judged`: the verdict or `None` with the error, every raw reply, the usage. An
unreadable verdict is asked once more. `METHODS` holds their records for the judge catalogue
(judge/catalog.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from webfovea.judge.client import Part
from webfovea.judge.evidence import Evidence
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod, JudgeModel
from webfovea.judge.prompt import (
    NAVEVAL_SYSTEM,
    WEBJUDGE_IMAGE,
    WEBJUDGE_KEYPOINTS,
    WEBJUDGE_OUTCOME,
    evidence_text,
    naveval_system,
)
from webfovea.judge.verdict import (
    REASK,
    Verdict,
    VerdictError,
    parse_image_score,
    parse_verdict,
    parse_webjudge,
)
from webfovea.models.base import ModelError

MAX_KEY_IMAGES = 15
KEY_IMAGE_THRESHOLD = 3


async def call_model(
    model: JudgeModel, judged: Judged, task_id: str, stage: str, system: str, parts: list[Part]
) -> str:
    reply = await model.ask(task_id, system, parts)
    judged.calls.append({"stage": stage, "raw_reply": reply.text, "usage": reply.usage.to_json()})
    return reply.text


async def _verdict_with_reask(
    model: JudgeModel,
    judged: Judged,
    task_id: str,
    stage: str,
    system: str,
    parts: list[Part],
    parse: Callable[[str], Verdict],
) -> Verdict | None:
    text = await call_model(model, judged, task_id, stage, system, parts)
    try:
        return parse(text)
    except VerdictError as first:
        again = [*parts, ("text", f"Your previous reply:\n{text[:4000]}\n\n" + REASK.format(error=first))]
        text = await call_model(model, judged, task_id, stage + ":reask", system, again)
        try:
            return parse(text)
        except VerdictError as second:
            judged.error = f"unparsable verdict after one re-ask: {second}"
            judged.unparsed = True
            return None


def _image_parts(ev: Evidence) -> list[Part]:
    data = ev.image_bytes()
    return [("image", data)] if data else []


async def judge_naveval(model: JudgeModel, ev: Evidence) -> Judged:
    judged = Judged()
    t0 = time.monotonic()
    parts: list[Part] = [("text", evidence_text(ev)), *_image_parts(ev)]
    try:
        judged.verdict = await _verdict_with_reask(
            model, judged, ev.task_id, "naveval", naveval_system(ev.answer is not None), parts, parse_verdict
        )
    except ModelError as e:
        judged.error = f"judge model failed: {e}"
    judged.latency_s = round(time.monotonic() - t0, 3)
    return judged


async def judge_webjudge(model: JudgeModel, ev: Evidence, images: list[tuple[str, bytes]]) -> Judged:
    """`images`: (file name, bytes) of every screenshot, in step order."""
    judged = Judged()
    t0 = time.monotonic()
    try:
        key_points = await call_model(
            model, judged, ev.task_id, "key_points", WEBJUDGE_KEYPOINTS, [("text", f"Task: {ev.task}")]
        )
        kept: list[tuple[str, bytes, str]] = []
        for name, data in images[-MAX_KEY_IMAGES * 2 :]:
            text = await call_model(
                model,
                judged,
                ev.task_id,
                f"image:{name}",
                WEBJUDGE_IMAGE,
                [("text", f"Task: {ev.task}\nKey points:\n{key_points}"), ("image", data)],
            )
            score = parse_image_score(text)
            if score is not None and score >= KEY_IMAGE_THRESHOLD:
                kept.append((name, data, text.split("Score:")[0].replace("Reasoning:", "").strip()))
        kept = kept[-MAX_KEY_IMAGES:]
        parts: list[Part] = [("text", f"{evidence_text(ev)}\n- key points:\n{key_points}")]
        for name, data, why in kept:
            parts += [("text", f"Key screenshot {name}: {why}"), ("image", data)]
        judged.verdict = await _verdict_with_reask(
            model, judged, ev.task_id, "outcome", WEBJUDGE_OUTCOME, parts, parse_webjudge
        )
    except ModelError as e:
        judged.error = f"judge model failed: {e}"
    judged.latency_s = round(time.monotonic() - t0, 3)
    return judged


def _model(call: JudgeCall) -> JudgeModel:
    if call.model is None:
        raise ValueError("this judge method needs a judge model")
    return call.model


async def _naveval(call: JudgeCall) -> Judged:
    return await judge_naveval(_model(call), call.evidence)


async def _webjudge(call: JudgeCall) -> Judged:
    return await judge_webjudge(_model(call), call.evidence, call.images)


NAVEVAL = JudgeMethod(
    name="naveval-webfovea",
    help="our NavEval: one model call on the four channels (task, requests, last screenshot, URLs) "
    "plus the executed actions (and the answer in Protocol III)",
    prompt=NAVEVAL_SYSTEM,
    judge=_naveval,
)
WEBJUDGE = JudgeMethod(
    name="webjudge-webfovea",
    help="our WebJudge: key points, then the last 30 screenshots scored 1-5, then the outcome "
    "with the request evidence too",
    prompt=WEBJUDGE_OUTCOME,
    judge=_webjudge,
    images=True,
)
METHODS = (NAVEVAL, WEBJUDGE)
