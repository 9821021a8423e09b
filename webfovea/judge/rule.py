"""The rule judge: no model, the task's declared predicates evaluated on the agent-side evidence.

It reads only the task folder (capture.json's requests and navigations) and the task's
declared `nav_truth` from the run's tasks.json — never the sites' server-side log, or its
agreement with the truth would be 100% by construction. What it measures is whether the
agent's own record shows the navigation the server saw. `RULE` is its record in the judge
catalogue (judge/catalog.py).
"""

from __future__ import annotations

import time
from typing import Any

from webfovea.eval.scoring import score_answer
from webfovea.judge.folder import AgentRecord
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod
from webfovea.judge.requests import as_log_entry, normalise
from webfovea.judge.verdict import Requirement, Verdict
from webfovea.predicates import Predicate, evaluate


def agent_log(rec: AgentRecord) -> list[dict[str, Any]]:
    """The agent's capture as a request log: XHR/fetch requests, then top-level navigations
    (documents). The capture keeps the two kinds apart, so predicates name the kind (`fetch`)
    and their relative order never decides one."""
    log: list[dict[str, Any]] = []
    for raw in rec.requests:
        req = normalise(raw, rec.request_format, keep_form_bodies=True)
        log.append(as_log_entry(req, len(log)))
    for url in rec.urls:
        log.append(
            as_log_entry(
                {"url": url, "method": "GET", "resource_type": "document", "json_data": None}, len(log)
            )
        )
    return log


def rule_verdict(
    rec: AgentRecord, predicates: list[Predicate] | None, *, expected: Any = None, protocol: str = "I"
) -> Verdict | str:
    """A verdict, or a string saying why none can be given (no predicates declared)."""
    if not predicates:
        return "the task declares no navigation predicates (nav_truth); the rule judge has nothing to check"
    result = evaluate(predicates, agent_log(rec))
    details = [Requirement(action=d.label, passed=d.passed, reason=d.why) for d in result.details]
    passed = result.passed
    answer_supported = None
    if protocol == "III":
        score = score_answer(rec.answer if rec.status in ("finished", "SUCCESS", "") else None, expected)
        answer_supported = score.passed
        details.append(
            Requirement(
                action="the answer matches the expected value",
                passed=score.passed,
                reason=score.detail or score.how,
            )
        )
        passed = passed and score.passed
    n_ok = sum(d.passed for d in details)
    return Verdict(
        all_passed=passed,
        score=1.0 if passed else round(0.1 + 0.3 * n_ok / max(len(details), 1), 3),
        reasoning=f"{n_ok} of {len(details)} declared requirement(s) hold on the agent's capture",
        details=details,
        answer_supported=answer_supported,
    )


async def _judge(call: JudgeCall) -> Judged:
    task = call.task
    predicates = (task.model_extra or {}).get("nav_truth") if task else None
    t0 = time.monotonic()
    v = rule_verdict(call.record, predicates, expected=task.answer if task else None, protocol=call.protocol)
    latency = round(time.monotonic() - t0, 4)
    if isinstance(v, str):
        return Judged(error=v, latency_s=latency)
    return Judged(verdict=v, latency_s=latency)


RULE = JudgeMethod(
    name="rule",
    help="no model: the task's declared nav_truth predicates on the agent's capture",
    prompt="rule",
    judge=_judge,
    model=False,
)
METHODS = (RULE,)
