"""One question, one reply, read once: how the published single-call judges (Autonomous Eval,
AgentTrek Eval, WebVoyager's evaluator) ask their model. Their code reads the reply once and
never asks again; a reply it cannot read is recorded here as no verdict with the error (their
code would count it a failure), never as a verdict."""

from __future__ import annotations

import time
from collections.abc import Callable

from webfovea.judge.client import Part
from webfovea.judge.method import JudgeCall, Judged, JudgeModel
from webfovea.judge.methods import call_model
from webfovea.judge.verdict import Verdict, VerdictError
from webfovea.models.base import ModelError


def judge_model(call: JudgeCall) -> JudgeModel:
    if call.model is None:
        raise ValueError("this judge method needs a judge model")
    return call.model


async def ask_once(
    call: JudgeCall, stage: str, system: str, parts: list[Part], parse: Callable[[str], Verdict]
) -> Judged:
    """Ask the judge model once; the verdict, or `None` with why (unparsed reply, failed call)."""
    model = judge_model(call)
    judged, t0 = Judged(), time.monotonic()
    try:
        reply = await call_model(model, judged, call.evidence.task_id, stage, system, parts)
        try:
            judged.verdict = parse(reply)
        except VerdictError as e:
            judged.error, judged.unparsed = f"unparsed reply: {e}", True
    except ModelError as e:
        judged.error = f"judge model failed: {e}"
    judged.latency_s = round(time.monotonic() - t0, 3)
    return judged
