"""Reading a judge's reply into a verdict: strip fences, accept JSON or Python literals, validate.

NavEval's own prompt shows Python `True/False`, which `json.loads` rejects; models copy it.
A reply that still cannot be read raises VerdictError: the caller asks once more, then records
`verdict: null` with the error — never a silent failure label.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

_FENCE = re.compile(r"```(?:json|python|JSON)?\s*(.*?)```", re.DOTALL)
_THINK = re.compile(r"<thinking>.*?</thinking>", re.DOTALL | re.IGNORECASE)
REASK = (
    "Your reply could not be read as the JSON verdict ({error}). Reply again with exactly one JSON object "
    'with the keys "all_passed" (true/false), "score" (number), "reasoning" (string) and "details" (list).'
)


class VerdictError(ValueError):
    """An unreadable verdict; str(e) says why in one line."""


class Requirement(BaseModel):
    action: str = ""
    passed: bool
    reason: str = ""


class Verdict(BaseModel):
    all_passed: bool
    score: float = Field(ge=0.0, le=1.0)
    reasoning: str = ""
    details: list[Requirement] = Field(default_factory=list)
    answer_supported: bool | None = None

    @field_validator("all_passed", "answer_supported", mode="before")
    @classmethod
    def _strict_bool(cls, v: Any) -> Any:
        if isinstance(v, str) and v.strip().lower() in ("true", "false"):
            return v.strip().lower() == "true"
        return v


def _candidates(text: str) -> list[str]:
    text = _THINK.sub("", text or "").strip()
    found = [m.strip() for m in _FENCE.findall(text)]
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        found.append(text[start : end + 1])
    return found or [text]


def _load(blob: str) -> Any:
    try:
        return json.loads(blob)
    except ValueError:
        pass
    try:
        return ast.literal_eval(blob)  # Python literals: True/False/None, single quotes
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    fixed = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", re.sub(r"\bNone\b", "null", blob)))
    return json.loads(fixed)  # raises ValueError


def parse_verdict(text: str) -> Verdict:
    """The verdict in a reply, or VerdictError."""
    last_error = "no JSON object in the reply"
    for blob in _candidates(text):
        try:
            data = _load(blob)
        except ValueError as e:
            last_error = f"not JSON: {str(e)[:120]}"
            continue
        if not isinstance(data, dict):
            last_error = "the reply is not a JSON object"
            continue
        try:
            return Verdict.model_validate(data)
        except ValidationError as e:
            err = e.errors()[0]
            last_error = f"field {'.'.join(str(x) for x in err['loc']) or '?'}: {err['msg']}"
    raise VerdictError(last_error)


_STATUS = re.compile(r'Status:\s*"?(success|failure)"?', re.IGNORECASE)


def parse_webjudge(text: str) -> Verdict:
    """WebJudge's outcome: our JSON verdict, or its original two lines `Thoughts:` / `Status:`."""
    try:
        return parse_verdict(text)
    except VerdictError as first:
        m = _STATUS.search(text or "")
        if not m:
            raise first from None
        ok = m.group(1).lower() == "success"
        thoughts = (text or "").split("Status:")[0].replace("Thoughts:", "").strip()
        return Verdict(all_passed=ok, score=0.9 if ok else 0.2, reasoning=thoughts[:2000])


_SCORE = re.compile(r"Score:\s*([1-5])")


def parse_image_score(text: str) -> int | None:
    m = _SCORE.search(text or "")
    return int(m.group(1)) if m else None


# A `Status:` line as Autonomous Eval and AgentTrek Eval ask for it: `Status: "success"`, the
# quotes optional; markdown emphasis around the label tolerated (`**Status:** failure`).
_STATUS_LINE = re.compile(r"^\W*status\W*:\W*(?P<word>[A-Za-z]+)\W*$", re.IGNORECASE)
_THOUGHTS_LINE = re.compile(r"^\W*thoughts?\W*:\s*", re.IGNORECASE)


def parse_status_line(text: str) -> Verdict:
    """The verdict of a `Thoughts: … / Status: success|failure` reply, or VerdictError.

    The first line that is a `Status:` line decides (the published code reads the first line
    starting with `Status:`); a word other than success or failure, or no such line, is no
    verdict — the published code would count it a failure."""
    body = _THINK.sub("", text or "")
    for line in body.splitlines():
        m = _STATUS_LINE.match(line.strip())
        if not m:
            continue
        word = m.group("word").lower()
        if word not in ("success", "failure"):
            raise VerdictError(f"the Status line says {word!r}, not success or failure")
        ok = word == "success"
        thoughts = _THOUGHTS_LINE.sub("", body.split(line)[0].strip()).strip()
        return Verdict(all_passed=ok, score=0.9 if ok else 0.2, reasoning=thoughts[:2000])
    raise VerdictError("no `Status: success|failure` line in the reply")


def parse_success_token(text: str) -> Verdict:
    """WebVoyager's verdict: `NOT SUCCESS` anywhere is a failure, else `SUCCESS` anywhere a
    success (upper case, as its evaluator reads them); neither is no verdict, as there."""
    body = _THINK.sub("", text or "")
    if "NOT SUCCESS" in body:
        ok = False
    elif "SUCCESS" in body:
        ok = True
    else:
        raise VerdictError("the reply says neither SUCCESS nor NOT SUCCESS")
    return Verdict(all_passed=ok, score=0.9 if ok else 0.2, reasoning=body.strip()[:2000])
