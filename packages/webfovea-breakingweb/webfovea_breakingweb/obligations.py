"""Scoring by backend state: a task's obligations and invariants over the canonical diff.

An obligation is a change that must happen, e.g.
  {"entity": "records", "op": "create", "count": 1, "fields": {"dataset": "trade-q", ...}}
  {"entity": "records", "op": "update", "id": "R-0002", "fields": {"format": "JSON"}}
A create is met when exactly `count` created records carry all the fields; an update when
the record's final values are the fields. Invariants: nothing else changes, except noise
fields (`updated`, the app's clock and id counter). Score = met / total obligations; pass =
all met and no invariant broken. A task without obligations passes on state when nothing changed.

A retrieval task's obligation is a request predicate (webfovea/predicates.py, the engine the
judge's ground truth uses) over the session's server-side request log: "the request that
produced the answer carried the right filters", e.g.
  {"request": {"path": "/api/requests/catalogue/Prices", "method": "GET", "which": "any",
               "status": {"lt": 400}, "label": "the table was filtered by topic Prices"}}
Without the log (None) such an obligation is not met: it could not be established.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webfovea.predicates import evaluate_one

DEFAULT_NOISE = ("updated",)
SETTINGS_NOISE = ("clock", "counter")  # the session clock and id counter move with every save


@dataclass
class StateScore:
    score: float
    passed: bool
    obligations_met: list[bool] = field(default_factory=list)
    invariants_broken: list[dict[str, Any]] = field(default_factory=list)


def _final_records(diff: list[dict[str, Any]], entity: str) -> dict[str, dict[str, Any]]:
    """Updated records' final field values (only the fields that changed)."""
    out: dict[str, dict[str, Any]] = {}
    for c in diff:
        if c["entity"] == entity and c["op"] == "update":
            out.setdefault(c["id"], {})[c["field"]] = c["after"]
    return out


def _met(ob: dict[str, Any], diff: list[dict[str, Any]]) -> tuple[bool, set[tuple[str, str, str | None]]]:
    """Whether one obligation holds, and the diff entries it accounts for."""
    entity, want = ob["entity"], ob.get("fields", {})
    if ob["op"] == "create":
        hits = [
            c
            for c in diff
            if c["entity"] == entity
            and c["op"] == "create"
            and all(c["after"].get(k) == v for k, v in want.items())
        ]
        return len(hits) == int(ob.get("count", 1)), {(entity, c["id"], None) for c in hits}
    if ob["op"] == "update":
        changed = _final_records(diff, entity).get(str(ob["id"]), {})
        ok = all(changed.get(k) == v for k, v in want.items())
        return ok, {(entity, str(ob["id"]), k) for k in want} if ok else set()
    if ob["op"] == "delete":
        hit = any(c["entity"] == entity and c["op"] == "delete" and c["id"] == str(ob["id"]) for c in diff)
        return hit, {(entity, str(ob["id"]), None)} if hit else set()
    raise ValueError(f"unknown obligation op {ob['op']!r}")


def needs_requests(obligations: list[dict[str, Any]]) -> bool:
    return any("request" in ob for ob in obligations)


def score_state(
    diff: list[dict[str, Any]],
    obligations: list[dict[str, Any]],
    noise: list[str] | tuple[str, ...] = DEFAULT_NOISE,
    requests: list[dict[str, Any]] | None = None,
) -> StateScore:
    met: list[bool] = []
    covered: set[tuple[str, str, str | None]] = set()
    for ob in obligations:
        if "request" in ob:
            met.append(requests is not None and evaluate_one(ob["request"], requests).passed)
            continue
        ok, keys = _met(ob, diff)
        met.append(ok)
        covered |= keys
    broken = []
    for c in diff:
        if c["entity"] == "_settings" and c["field"] in SETTINGS_NOISE:
            continue
        if c["op"] == "update" and c["field"] in noise:
            continue
        if (c["entity"], c["id"], None) in covered or (c["entity"], c["id"], c["field"]) in covered:
            continue
        broken.append(c)
    score = sum(met) / len(met) if met else (1.0 if not broken else 0.0)
    return StateScore(
        score=round(score, 4), passed=all(met) and not broken, obligations_met=met, invariants_broken=broken
    )
