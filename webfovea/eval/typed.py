"""Scoring a typed answer (a task with an answer schema) against its expected JSON value, field by
field: objects by their expected keys, arrays item by item (in order when the expected value
says `ordered`, else each expected item met by a different answer item), and every leaf by the
scalar rules of `scoring.py` (numbers as numbers within its tolerance, dates, text normalised).
A field the expected value does not name is not judged."""

from __future__ import annotations

from typing import Any

from webfovea.eval.scoring import Score, score_scalar


def _leaf(value: Any, expected: Any) -> bool:
    if expected is None:
        return value is None
    if isinstance(expected, bool) or isinstance(value, bool):
        return value is expected
    if value is None or isinstance(value, dict | list):
        return False
    return score_scalar(str(value), expected).passed


def _match(value: Any, expected: Any, ordered: bool, path: str) -> str | None:
    """None when `value` meets `expected`, else the first place where it does not."""
    if isinstance(expected, dict):
        if not isinstance(value, dict):
            return f"{path or 'the answer'} is not an object"
        for key, exp in expected.items():
            if key not in value:
                return f"{path}/{key} is missing"
            if (why := _match(value[key], exp, ordered, f"{path}/{key}")) is not None:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(value, list) or len(value) != len(expected):
            got = len(value) if isinstance(value, list) else "no list"
            return f"{path or 'the answer'} has {got} items, expected {len(expected)}"
        if ordered:
            for i, (v, e) in enumerate(zip(value, expected, strict=True)):
                if (why := _match(v, e, ordered, f"{path}/{i}")) is not None:
                    return why
            return None
        free = list(range(len(value)))
        for i, exp in enumerate(expected):
            hit = next((j for j in free if _match(value[j], exp, ordered, "") is None), None)
            if hit is None:
                return f"{path}/{i}: no item of the answer matches {exp!r}"
            free.remove(hit)
        return None
    return None if _leaf(value, expected) else f"{path or 'the answer'}: {value!r} != {expected!r}"


def score_typed(value: Any, expected: Any) -> Score:
    """`expected` is the JSON value, or {"value": ..., "ordered": true} for ordered arrays."""
    ordered = False
    if isinstance(expected, dict) and set(expected) <= {"value", "ordered"} and "value" in expected:
        ordered, expected = bool(expected.get("ordered")), expected["value"]
    why = _match(value, expected, ordered, "")
    return Score(True, "typed") if why is None else Score(False, "mismatch", why)
