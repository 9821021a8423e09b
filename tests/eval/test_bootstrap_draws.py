"""webfovea/stats.py's bootstrap draws inlined for speed: the intervals must stay the ones the
plain `rng.randrange(n)` form gives, so a run re-scored (or a report over runs) matches the
intervals its summary already holds."""

from __future__ import annotations

import random

from webfovea.stats import BOOTSTRAP, bootstrap


def _reference(diffs: list[float], seed: str) -> list[float]:
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(BOOTSTRAP))
    return [round(means[int(0.025 * BOOTSTRAP)], 4), round(means[int(0.975 * BOOTSTRAP) - 1], 4)]


def test_the_intervals_are_those_of_randrange() -> None:
    src = random.Random(7)
    for n in (1, 2, 3, 7, 64, 130):
        diffs = [src.choice([-1.0, -0.5, 0.0, 0.5, 1.0]) for _ in range(n)]
        assert bootstrap(diffs, f"case|{n}") == _reference(diffs, f"case|{n}")
    assert bootstrap([], "x") == []
    assert bootstrap([1.0, 0.0, 1.0], "bootstrap|a") == [0.0, 1.0]  # pinned: the draws never change
