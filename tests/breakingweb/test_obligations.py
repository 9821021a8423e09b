"""Obligations and invariants over a canonical diff (the seed's "mark five emails" cases)."""

from __future__ import annotations

from webfovea_breakingweb.engine.diff import canonical_diff
from webfovea_breakingweb.obligations import score_state

BEFORE = {
    "counter": 2,
    "clock": 0,
    "records": [
        {"id": "R-1", "status": "open", "folder": "inbox", "updated": "t0"},
        {"id": "R-2", "status": "open", "folder": "inbox", "updated": "t0"},
    ],
}


def _after(**changes: dict) -> dict:
    recs = [dict(r, **changes.get(r["id"].replace("-", ""), {})) for r in BEFORE["records"]]
    return {**BEFORE, "clock": 1, "records": recs}


def test_update_met_and_noise_allowed() -> None:
    diff = canonical_diff(BEFORE, _after(R1={"status": "resolved", "updated": "t1"}))
    sc = score_state(
        diff, [{"entity": "records", "op": "update", "id": "R-1", "fields": {"status": "resolved"}}]
    )
    assert sc.passed and sc.score == 1.0 and sc.invariants_broken == []


def test_collateral_change_breaks_an_invariant() -> None:
    diff = canonical_diff(BEFORE, _after(R1={"status": "resolved"}, R2={"folder": "spam"}))
    sc = score_state(
        diff, [{"entity": "records", "op": "update", "id": "R-1", "fields": {"status": "resolved"}}]
    )
    assert sc.score == 1.0 and not sc.passed
    assert [(c["id"], c["field"]) for c in sc.invariants_broken] == [("R-2", "folder")]


def test_partial_credit_is_not_a_pass() -> None:
    diff = canonical_diff(BEFORE, _after(R1={"status": "resolved"}))
    obligations = [
        {"entity": "records", "op": "update", "id": i, "fields": {"status": "resolved"}}
        for i in ("R-1", "R-2")
    ]
    sc = score_state(diff, obligations)
    assert sc.score == 0.5 and not sc.passed and sc.obligations_met == [True, False]


def test_create_needs_exactly_count_matching_records() -> None:
    new = {"id": "R-3", "status": "open", "folder": "billing", "updated": "t1"}
    after = {**BEFORE, "counter": 3, "records": [*BEFORE["records"], new]}
    ob = [{"entity": "records", "op": "create", "count": 1, "fields": {"folder": "billing"}}]
    assert score_state(canonical_diff(BEFORE, after), ob).passed
    twice = {**after, "records": [*after["records"], {**new, "id": "R-4"}]}
    assert not score_state(canonical_diff(BEFORE, twice), ob).passed  # a double submission
    assert not score_state(canonical_diff(BEFORE, BEFORE), ob).passed  # a forged "Saved"


def test_diff_is_sorted_and_canonical() -> None:
    diff = canonical_diff(BEFORE, _after(R2={"folder": "spam", "status": "resolved"}))
    assert [(c["id"], c["field"]) for c in diff if c["entity"] == "records"] == [
        ("R-2", "folder"),
        ("R-2", "status"),
    ]
    assert canonical_diff(BEFORE, BEFORE) == []


FILTERED = {
    "request": {
        "path": "/api/requests/catalogue/Prices",
        "method": "GET",
        "which": "any",
        "status": {"lt": 400},
        "label": "filtered by Prices",
    }
}


def test_a_retrieval_obligation_is_a_request_predicate_over_the_log() -> None:
    log = [
        {"method": "GET", "path": "/api/requests/catalogue", "query": {}, "status": 200, "ordinal": 0},
        {"method": "GET", "path": "/api/requests/catalogue/Prices", "query": {}, "status": 503, "ordinal": 1},
    ]
    assert not score_state([], [FILTERED], requests=log).passed  # only a failed filtered request
    log.append(
        {"method": "GET", "path": "/api/requests/catalogue/Prices", "query": {}, "status": 200, "ordinal": 2}
    )
    sc = score_state([], [FILTERED], requests=log)
    assert sc.passed and sc.obligations_met == [True]
    assert not score_state([], [FILTERED], requests=None).passed  # no log: not established
