"""Statistics every report shares: the paired bootstrap interval (BreakingWeb's paired drops,
the A/B comparison of two arms' drops). Standard library only, so every layer may use it."""

from __future__ import annotations

import random

__all__ = ["BOOTSTRAP", "bootstrap"]

BOOTSTRAP = 1000  # resamples


def bootstrap(diffs: list[float], seed: str) -> list[float]:
    """95% interval of mean(diffs) over resampled pairs (seeded: reproducible)."""
    if not diffs:
        return []
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(BOOTSTRAP))
    return [round(means[int(0.025 * BOOTSTRAP)], 4), round(means[int(0.975 * BOOTSTRAP) - 1], 4)]
