"""Predicates over a request log and a final state: the programmatic truth of a navigation.

In the style of webarena-verified's network-event evaluator: a predicate picks requests by
method, path and kind (XHR/fetch or document), takes the last one (or asks whether any / none
matches), and compares its query and body parameters with expected values or conditions.
The engine is generic: it knows nothing of any site. The proving ground's tasks declare their
predicates as plain JSON (`Task.nav_truth`); the same predicates are evaluated on the sites'
own server-side log (ground truth) and, by the rule judge, on the agent's capture.

A request entry (both sources are normalised to it):
  {"method": "GET", "path": "/stats/api/table", "query": {"country": "VN"}, "body": {...} | None,
   "fetch": true, "origin": "http://127.0.0.1:8000" | None, "status": 200 | None}

A predicate:
  {"path": "/stats/api/table",        # exact path, or "path_prefix": "/stats"
   "method": "GET",                   # optional
   "fetch": true,                     # optional: true = XHR/fetch, false = document/subresource
   "which": "last",                   # last (default) | any | none
   "query": {"country": "VN", "from": {"le": "2023-05-01"}},
   "body":  {"dataset": "cpi-m"},     # dotted keys reach into nested JSON bodies
   "status": {"lt": 400},             # optional: a condition on the answer's HTTP status
   "label": "the table shows Viet Nam"}   # optional, for the details
A condition is a literal (equality after str(), case-sensitive), or one of
  {"eq": v}, {"ne": v}, {"in": [..]}, {"le": v}, {"ge": v}, {"lt": v}, {"gt": v}
  (compared as numbers when both sides parse as numbers, else as strings — ISO dates sort
  right), {"contains": s}, {"icontains": s}, {"present": bool}.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

Entry = dict[str, Any]
Predicate = dict[str, Any]

_OPS = ("eq", "ne", "in", "le", "ge", "lt", "gt", "contains", "icontains", "present")
_WHICH = ("last", "any", "none")


class PredicateError(ValueError):
    """A malformed predicate; the message names the field."""


@dataclass
class PredicateResult:
    label: str
    passed: bool
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "passed": self.passed, "why": self.why}


@dataclass
class Verdict:
    passed: bool
    details: list[PredicateResult] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "details": [d.to_json() for d in self.details]}


def check_predicate(p: Predicate) -> None:
    """Raise PredicateError unless `p` is a well-formed predicate."""
    if not isinstance(p, dict):
        raise PredicateError(f"a predicate is a JSON object, not {type(p).__name__}")
    if not isinstance(p.get("path") or p.get("path_prefix"), str):
        raise PredicateError("a predicate needs 'path' or 'path_prefix' (a string)")
    if p.get("which", "last") not in _WHICH:
        raise PredicateError(f"'which' must be one of {', '.join(_WHICH)}")
    status = p.get("status")
    if isinstance(status, dict) and (len(status) != 1 or next(iter(status)) not in _OPS):
        raise PredicateError(f"status: a condition object has one of {', '.join(_OPS)}")
    for part in ("query", "body"):
        conds = p.get(part) or {}
        if not isinstance(conds, dict):
            raise PredicateError(f"'{part}' must be an object of name -> condition")
        for name, cond in conds.items():
            if isinstance(cond, dict) and (len(cond) != 1 or next(iter(cond)) not in _OPS):
                raise PredicateError(f"{part}.{name}: a condition object has one of {', '.join(_OPS)}")


def _number(v: Any) -> float | None:
    try:
        return float(str(v).replace(",", ""))
    except ValueError:
        return None


Ordered = TypeVar("Ordered", float, str)


def _order(op: str, a: Ordered, b: Ordered) -> bool:
    return {"le": a <= b, "ge": a >= b, "lt": a < b, "gt": a > b}[op]


def _ordered(op: str, a: Any, b: Any) -> bool:
    """Numbers compare as numbers (1,200 is 1200), anything else as text."""
    na, nb = _number(a), _number(b)
    return _order(op, na, nb) if na is not None and nb is not None else _order(op, str(a), str(b))


def _holds(value: Any, cond: Any) -> bool:
    """Does one value (None = absent; lists: any element) satisfy a condition?"""
    if isinstance(value, list) and not (isinstance(cond, dict) and "present" in cond):
        return any(_holds(v, cond) for v in value)
    if not isinstance(cond, dict):
        return value is not None and str(value) == str(cond)
    first: tuple[str, Any] = next(iter(cond.items()))  # one operator: checked by check_predicate
    op, want = first
    if op == "present":
        return (value is not None and value != "") == bool(want)
    if value is None:
        return op == "ne"
    if op == "eq":
        return str(value) == str(want)
    if op == "ne":
        return str(value) != str(want)
    if op == "in":
        return str(value) in {str(w) for w in want}
    if op == "contains":
        return str(want) in str(value)
    if op == "icontains":
        return str(want).lower() in str(value).lower()
    return _ordered(op, value, want)


def lookup(data: Any, dotted: str) -> Any:
    """`a.b.0.c` inside nested dicts/lists; None when any part is missing."""
    cur = data
    for part in dotted.split("."):
        if isinstance(cur, dict):
            cur = cur.get(part)
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return None
    return cur


def _selects(p: Predicate, e: Entry) -> bool:
    if "path" in p and e.get("path") != p["path"]:
        return False
    if "path_prefix" in p and not str(e.get("path") or "").startswith(p["path_prefix"]):
        return False
    if "method" in p and str(e.get("method", "")).upper() != str(p["method"]).upper():
        return False
    return not ("fetch" in p and bool(e.get("fetch")) != bool(p["fetch"]))


def _mismatches(p: Predicate, e: Entry) -> list[str]:
    bad = []
    for name, cond in (p.get("query") or {}).items():
        value = (e.get("query") or {}).get(name)
        if not _holds(value, cond):
            bad.append(f"query {name}={value!r} does not satisfy {cond!r}")
    for name, cond in (p.get("body") or {}).items():
        value = lookup(e.get("body"), name)
        if not _holds(value, cond):
            bad.append(f"body {name}={value!r} does not satisfy {cond!r}")
    if "status" in p and not _holds(e.get("status"), p["status"]):
        bad.append(f"status {e.get('status')!r} does not satisfy {p['status']!r}")
    return bad


def describe(p: Predicate) -> str:
    if p.get("label"):
        return str(p["label"])
    where = p.get("path") or (str(p.get("path_prefix")) + "*")
    conds = ", ".join(f"{k}={v!r}" for k, v in {**(p.get("query") or {}), **(p.get("body") or {})}.items())
    return f"{p.get('which', 'last')} {p.get('method', '')} {where}".replace("  ", " ") + (
        f" with {conds}" if conds else ""
    )


def evaluate_one(p: Predicate, log: Iterable[Entry]) -> PredicateResult:
    check_predicate(p)
    which = p.get("which", "last")
    picked = [e for e in log if _selects(p, e)]
    label = describe(p)
    if which == "none":
        hits = [e for e in picked if not _mismatches(p, e)]
        return PredicateResult(
            label, not hits, f"{len(hits)} matching request(s)" if hits else "no matching request"
        )
    if not picked:
        return PredicateResult(label, False, "no such request")
    if which == "any":
        for e in picked:
            if not _mismatches(p, e):
                return PredicateResult(label, True, f"request #{e.get('ordinal', '?')} matches")
        return PredicateResult(
            label,
            False,
            f"none of {len(picked)} request(s) matches: " + "; ".join(_mismatches(p, picked[-1])),
        )
    last = picked[-1]
    bad = _mismatches(p, last)
    return PredicateResult(
        label,
        not bad,
        "; ".join(bad) if bad else f"the last such request (#{last.get('ordinal', '?')}) matches",
    )


def evaluate(predicates: list[Predicate], log: list[Entry]) -> Verdict:
    """All predicates hold on the log (an empty list of predicates holds trivially)."""
    details = [evaluate_one(p, log) for p in predicates]
    return Verdict(all(d.passed for d in details), details)
