"""The oracle as the verifier (`purpose="verify_answer"`, guardrails/verifier.py), and as an agent
told its answer was rejected.

As the verifier it reads the candidate answer from the request as any model would read it (the
block between `<<<` and `>>>`) and compares it with the task's truth (`Task.answer`): numbers
by value, text by its words. It is right whenever the truth is right, so numbers measured with
it are an UPPER BOUND for a verifier: they say what the loop of reject-and-retry can recover,
not what a real verifier model would catch. A task without a known answer is accepted, noted.

As an agent it reacts to a rejection (the note opening with `feedback.notes.VERIFIER_OPENING`)
the way a careful model reacts to being told to look again: it stops misreading (its misread
quirks are off for the rest of the task) and goes back to the plan step where the first
misreading happened — the answer step for a misread value, the detour it skipped, the row it
clicked — then answers again. With no misreading it answers the same again.
"""

from __future__ import annotations

import re
from typing import Any

from webfovea.feedback.notes import VERIFIER_OPENING
from webfovea.guardrails.verifier import candidate_of
from webfovea.task import Task

_NUM = re.compile(r"-?\d[\d,\u00a0\u202f]*(?:\.\d+)?")
_WORD = re.compile(r"[a-z0-9]+")


def rejected(feedback: str | None) -> bool:
    return bool(feedback) and VERIFIER_OPENING in str(feedback)


def verdict_text(task: Task, request: str) -> str:
    """The oracle's reply to a verifier request, in the verifier's three-line form."""
    candidate = candidate_of(request)
    if candidate is None:
        return "VERDICT: accept\nREASON: the request names no candidate answer.\nLOOK AT: -"
    if task.answer is None:
        return "VERDICT: accept\nREASON: no truth is known for this task.\nLOOK AT: -"
    if matches(candidate, task.answer):
        return "VERDICT: accept\nREASON: the answer is the value the task asks for.\nLOOK AT: -"
    return (
        "VERDICT: reject\nREASON: the answer is not the value the task asks for.\n"
        "LOOK AT: the exact row, series and period the task names, in the table itself "
        "(not a summary box or a look-alike row), with its unit explained"
    )


def _numbers(text: str) -> list[float]:
    out = []
    for m in _NUM.finditer(text):
        try:
            out.append(float(re.sub(r"[,\u00a0\u202f]", "", m.group(0))))
        except ValueError:
            continue
    return out


def matches(candidate: str, expected: Any) -> bool:
    """The candidate holds the expected value: every expected number (by value) or its words."""
    if isinstance(expected, dict):
        return all(matches(candidate, v) for v in expected.values())
    if isinstance(expected, list | tuple):
        return all(matches(candidate, v) for v in expected)
    if isinstance(expected, bool):
        return str(expected).lower() in candidate.lower() or (
            ("yes" if expected else "no") in _WORD.findall(candidate.lower())
        )
    text = str(expected)
    want = _numbers(text)
    if want and not re.search(r"[a-z]", text.lower()):  # a number (a unit sign at most): by value
        got = _numbers(candidate)
        return all(any(abs(g - w) <= 1e-9 * max(1.0, abs(w)) for g in got) for w in want)
    words = _WORD.findall(text.lower())
    said = " ".join(_WORD.findall(candidate.lower()))
    if not words:  # an empty truth ("answer with an empty string") is met by an empty answer
        return not said
    return f" {' '.join(words)} " in f" {said} "
