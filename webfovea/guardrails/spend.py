"""Spending caps in tokens and money: a task's, checked by the task driver before each model
call, and a run's, checked by the runner before it starts a task.

Both read usage that is already recorded — the task's usage totals that result.json holds, the
result.json files of a run's tasks — and nothing else: no model client reports to them on the
side, so the spend a cap stopped at is the spend the records show. The rule: a cap is reached
when the spend so far is at or above it; the call that crossed it has been made (its tokens are
known only after it), the next one is not.

Tokens count every call of every role (the act model, look/locate, the verifier, the summary):
prompt and completion. Money prices all of them with the one table given (a separate vision or
summary model priced as the task's model: a cap errs on the early side).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from webfovea.config import NO_PRICES, HarnessConfig
from webfovea.record.schema import TaskResult, UsageTotals

PRICE_KEYS = ("input", "output", "cache_read", "cache_write")
WRITE_UNITS, READ_UNITS = 1.25, 0.1  # a cache write and a cache read, per uncached input token


class PriceError(ValueError):
    """The prices cannot be used; the message says how to fix it."""


def price_table(data: Any, source: str = "prices") -> dict[str, float]:
    """`{"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}` ($ per million
    tokens) checked; cache_read / cache_write default to 0.1x / 1.25x input (Anthropic's
    5-minute cache)."""
    if not isinstance(data, Mapping) or "input" not in data or "output" not in data:
        raise PriceError(
            f"{source}: give a JSON object with at least input and output ($ per million tokens), "
            'e.g. {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}'
        )
    unknown = sorted(set(data) - set(PRICE_KEYS))
    if unknown:
        raise PriceError(
            f"{source}: unknown price key(s) {', '.join(unknown)}; known: {', '.join(PRICE_KEYS)}"
        )
    try:
        prices = {str(k): float(v) for k, v in data.items()}
    except (TypeError, ValueError):
        raise PriceError(f"{source}: prices must be numbers") from None
    if any(v < 0 for v in prices.values()):
        raise PriceError(f"{source}: prices cannot be negative")
    prices.setdefault("cache_read", prices["input"] * READ_UNITS)
    prices.setdefault("cache_write", prices["input"] * WRITE_UNITS)
    return prices


def dollars(prices: Mapping[str, float], *, uncached: int, written: int, read: int, output: int) -> float:
    """$ for these tokens at `prices` ($ per million tokens, as price_table gives them)."""
    cost = (
        uncached * prices["input"]
        + written * prices.get("cache_write", prices["input"] * WRITE_UNITS)
        + read * prices.get("cache_read", prices["input"] * READ_UNITS)
        + output * prices["output"]
    ) / 1e6
    return round(cost, 6)


@dataclass(frozen=True)
class Spend:
    tokens: int = 0
    cost: float | None = None  # $ when prices are known

    def to_json(self) -> dict[str, Any]:
        return {"tokens": self.tokens, **({"cost": self.cost} if self.cost is not None else {})}


def _usages(result: TaskResult) -> list[UsageTotals]:
    return [
        u
        for u in (result.usage, result.vision_usage, result.verifier_usage, result.summary_usage)
        if u is not None
    ]


@dataclass(frozen=True)
class SpendCap:
    """At most `max_tokens` tokens and `max_cost` $ (at `prices`); None: no such cap."""

    max_tokens: int | None = None
    max_cost: float | None = None
    prices: Mapping[str, float] | None = None

    def __post_init__(self) -> None:
        if self.max_tokens is not None and self.max_tokens < 1:
            raise PriceError(f"a token budget must be at least 1, not {self.max_tokens}")
        if self.max_cost is not None and self.max_cost <= 0:
            raise PriceError(f"a money budget must be above 0, not {self.max_cost}")
        if self.max_cost is not None and not self.prices:
            raise PriceError(NO_PRICES)

    @classmethod
    def of(cls, config: HarnessConfig) -> SpendCap:
        """A task's caps, as its configuration sets them."""
        return cls(config.max_tokens, config.max_cost, config.prices)

    @property
    def active(self) -> bool:
        return self.max_tokens is not None or self.max_cost is not None

    def spent(self, usages: Iterable[UsageTotals]) -> Spend:
        """The spend of these recorded usage totals (the cost only with prices)."""
        tokens = uncached = written = read = output = 0
        for u in usages:
            tokens += u.prompt_tokens + u.completion_tokens
            uncached += u.input_tokens
            written += u.cache_creation_input_tokens
            read += u.cache_read_input_tokens
            output += u.completion_tokens
        cost = None
        if self.prices:
            cost = dollars(self.prices, uncached=uncached, written=written, read=read, output=output)
        return Spend(tokens, cost)

    def spent_by(self, results: Iterable[TaskResult]) -> Spend:
        """The spend result.json files recorded, every role of every task."""
        return self.spent(u for r in results for u in _usages(r))

    def reached(self, spend: Spend) -> str | None:
        """Why the cap is reached (the spend so far at or above it), or None."""
        if self.max_tokens is not None and spend.tokens >= self.max_tokens:
            return f"token budget of {self.max_tokens:,} reached: {spend.tokens:,} tokens spent"
        if self.max_cost is not None and spend.cost is not None and spend.cost >= self.max_cost:
            return f"money budget of ${self.max_cost:g} reached: ${spend.cost:.4f} spent"
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            k: v for k, v in (("max_tokens", self.max_tokens), ("max_cost", self.max_cost)) if v is not None
        }
