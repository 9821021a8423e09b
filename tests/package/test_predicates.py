"""The predicate engine (webfovea/predicates.py) on request logs."""

from __future__ import annotations

import pytest

from webfovea.predicates import PredicateError, evaluate, evaluate_one

LOG = [
    {"ordinal": 0, "method": "GET", "path": "/stats", "query": {}, "fetch": False},
    {
        "ordinal": 1,
        "method": "GET",
        "path": "/stats/api/table",
        "query": {"country": "VN", "from": "2023-01-01"},
        "fetch": True,
    },
    {
        "ordinal": 2,
        "method": "GET",
        "path": "/stats/api/table",
        "query": {"country": "AU", "from": "2015-01-01"},
        "fetch": True,
    },
    {
        "ordinal": 3,
        "method": "POST",
        "path": "/api/submit",
        "query": {},
        "fetch": True,
        "body": {"filters": {"beds": "2", "price": ["1500", "2500"]}},
    },
]


def test_last_any_none() -> None:
    assert not evaluate_one(
        {"path": "/stats/api/table", "query": {"country": "VN"}}, LOG
    ).passed  # cleared later
    assert evaluate_one({"path": "/stats/api/table", "which": "any", "query": {"country": "VN"}}, LOG).passed
    assert evaluate_one({"path": "/stats/api/table", "which": "none", "query": {"country": "NZ"}}, LOG).passed
    assert not evaluate_one({"path": "/nowhere"}, LOG).passed


def test_conditions_and_bodies() -> None:
    assert evaluate_one({"path": "/stats/api/table", "query": {"from": {"le": "2016-01-01"}}}, LOG).passed
    assert evaluate_one(
        {"path": "/stats/api/table", "which": "any", "query": {"from": {"ge": "2023-01-01"}}}, LOG
    ).passed
    assert evaluate_one({"path": "/api/submit", "method": "POST", "body": {"filters.beds": 2}}, LOG).passed
    assert evaluate_one({"path": "/api/submit", "body": {"filters.price": {"in": ["2500"]}}}, LOG).passed
    assert evaluate_one({"path": "/api/submit", "body": {"filters.rooms": {"present": False}}}, LOG).passed
    assert not evaluate_one({"path": "/api/submit", "body": {"filters.beds": {"gt": 2}}}, LOG).passed
    assert evaluate_one({"path_prefix": "/stats", "fetch": False}, LOG).passed


def test_all_must_hold_and_details_say_why() -> None:
    v = evaluate(
        [{"path": "/stats", "fetch": False}, {"path": "/stats/api/table", "query": {"country": "VN"}}], LOG
    )
    assert not v.passed and v.details[0].passed
    assert "country='AU' does not satisfy 'VN'" in v.details[1].why


def test_malformed_predicates_are_refused() -> None:
    with pytest.raises(PredicateError):
        evaluate_one({"query": {}}, LOG)
    with pytest.raises(PredicateError):
        evaluate_one({"path": "/x", "query": {"a": {"between": [1, 2]}}}, LOG)
