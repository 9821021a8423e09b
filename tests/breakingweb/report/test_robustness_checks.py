"""The four robustness checks of seed 003 §3, each on a hand-made case whose answer is worked
out in the comments."""

from __future__ import annotations

import random

import pytest

from webfovea.record import TaskRow
from webfovea_breakingweb.paired import Pair
from webfovea_breakingweb.report.robustness import (
    balanced_macro,
    half_family_splits,
    ordering_agreement,
    spearman,
    threshold_variant,
)


def _row(score: float) -> TaskRow:
    return TaskRow(status="finished", passed=score == 1.0, score=score)


def _pair(family: str, primitive: str, clean: float, under: float) -> Pair:
    return Pair(family, "network", primitive, _row(clean), _row(under))


def test_spearman_by_hand() -> None:
    assert spearman([1, 2, 3], [10, 20, 30]) == 1.0
    assert spearman([1, 2, 3], [3, 2, 1]) == -1.0
    # ties share their mean rank: [1.5, 1.5, 3] against [1, 2, 3]; cov 1.5, var 1.5 and 2
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(1.5 / (1.5 * 2) ** 0.5, abs=1e-4)
    assert spearman([1], [1]) is None and spearman([1, 1], [1, 2]) is None
    with pytest.raises(ValueError, match="differ in length"):
        spearman([1, 2], [1])


def test_pass_and_score_orderings_agree_or_not() -> None:
    # a: pass drop 1, score drop 0.5 (1 -> 0.5); b: 0 and 0; c: pass drop 1, score drop 1
    groups = {
        "a": [[_pair("f", "a", 1, 0.5)]],
        "b": [[_pair("g", "b", 1, 1)]],
        "c": [[_pair("h", "c", 1, 0)]],
    }
    out = ordering_agreement(groups)
    assert out["groups"] == ["a", "b", "c"]
    assert (out["pass_drop"], out["score_drop"]) == ([1.0, 0.0, 1.0], [0.5, 0.0, 1.0])
    # ranks: pass [2.5, 1, 2.5], score [2, 1, 3]: cov 1.5, var 1.5 and 2 -> 0.866
    assert out["rho"] == pytest.approx(0.866, abs=1e-3)
    # a group over two runs is their macro-average: (1 + 0)/2 pass, (0.5 + 0)/2 score
    two = ordering_agreement({"a": [[_pair("f", "a", 1, 0.5)], [_pair("f", "a", 1, 1)]], "b": groups["b"]})
    assert (two["pass_drop"], two["score_drop"], two["rho"]) == ([0.5, 0.0], [0.25, 0.0], 1.0)


def test_the_half_threshold_keeps_the_drop_of_runs_that_lost_more_than_half() -> None:
    # a run that kept half its score stops counting as a drop at 0.5; one that lost it all still does
    out = threshold_variant([_pair("f", "p", 1, 0.5), _pair("f", "p", 1, 0), _pair("f", "p", 1, 1)])
    assert (out["strict_drop"], out["threshold_drop"], out["retained"]) == (0.6667, 0.3333, 0.5)
    assert threshold_variant([_pair("f", "p", 1, 1)])["retained"] is None  # no strict drop to keep


def test_balanced_macro_weighs_every_family_alike() -> None:
    # primitive p: family big has 3 pairs that all drop (1.0), family small 1 that does not (0)
    # pooled 3/4 = 0.75; balanced (1 + 0)/2 = 0.5; q: one family, both agree
    pairs = [_pair("big", "p", 1, 0)] * 3 + [_pair("small", "p", 1, 1), _pair("only", "q", 1, 0)]
    out = balanced_macro(pairs)
    assert out["per_primitive"]["p"] == {"families": 2, "pooled": 0.75, "balanced": 0.5, "diff": -0.25}
    assert out["per_primitive"]["q"]["diff"] == 0.0
    assert out["max_abs_diff"] == 0.25


def test_half_family_splits_count_the_halves_by_hand() -> None:
    # f1, f2 (primitive a) always drop; f3 (b), f4 (c) never. Top-1 is a unless the half is {f3, f4}.
    pairs = [_pair("f1", "a", 1, 0), _pair("f2", "a", 1, 0), _pair("f3", "b", 1, 1), _pair("f4", "c", 1, 1)]
    out = half_family_splits(pairs, splits=300, seed="s", k=1)
    rng = random.Random("s")
    halves = [set(rng.sample(["f1", "f2", "f3", "f4"], 2)) for _ in range(300)]
    without_a = sum(h == {"f3", "f4"} for h in halves)
    assert out["full_top"] == ["a"] and out["families"] == 4
    assert out["stable"] == {"a": round((300 - without_a) / 300, 4)}
    assert 0.75 < out["stable"]["a"] < 0.92  # 5/6 expected
    # in a {f3, f4} half b and c tie at 0: the tie goes to the name, b
    assert out["top_share"].get("b", 0.0) == round(without_a / 300, 4)
    assert "c" not in out["top_share"]
    assert half_family_splits(pairs, splits=300, seed="s", k=1) == out  # seeded
    assert half_family_splits(pairs[:1])["splits"] == 0  # one family cannot be halved
