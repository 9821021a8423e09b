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
    # rng.randrange(n), inlined (CPython's _randbelow_with_getrandbits: the same draws, so the
    # same intervals as before): a report over ten runs of 690 pairs spent most of its time in
    # randrange's argument checks.
    bits, k = rng.getrandbits, n.bit_length()
    means = []
    for _ in range(BOOTSTRAP):
        total = 0.0
        for _ in range(n):
            r = bits(k)
            while r >= n:
                r = bits(k)
            total += diffs[r]
        means.append(total / n)
    means.sort()
    return [round(means[int(0.025 * BOOTSTRAP)], 4), round(means[int(0.975 * BOOTSTRAP) - 1], 4)]
