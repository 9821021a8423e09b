"""Measured cost: tokens per step from the recorded usage of every call, and money when prices are given.

Per call the trajectory holds what the provider counted (models/base.py `Usage.to_json`):
`prompt_tokens` (the whole prompt), and for a caching provider `input_tokens` (neither read
from nor written to the cache), `cache_read_input_tokens`, `cache_creation_input_tokens`.
A call of a provider that does not split its prompt counts all of it as uncached.

- input_tokens_per_step: prompt tokens per step (cached parts included);
- uncached_input_tokens_per_step: input tokens neither read from nor written to the cache;
- cache_read_fraction: cache reads / prompt tokens, over the steps from the third of each
  task on (the first steps of a task write the cache and cannot read it);
- output_tokens_per_step;
- cost (with prices in $ per million tokens): input*uncached + cache_write*written +
  cache_read*read + output*completion; per task and in total.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.guardrails.spend import PRICE_KEYS, READ_UNITS, WRITE_UNITS, PriceError, dollars, price_table

FIRST_READ_STEP = 2  # 0-based: the third step of a task

__all__ = ["PRICE_KEYS", "PriceError", "TokenTally", "read_prices", "role_tallies", "task_tally"]


def read_prices(path: Path) -> dict[str, float]:
    """`{"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}` ($ per million tokens).

    cache_read / cache_write default to 0.1x / 1.25x input (Anthropic's 5-minute cache)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise PriceError(f"cannot read prices from {path}: {e}") from None
    return price_table(data, str(path))


@dataclass
class TokenTally:
    steps: int = 0
    prompt: int = 0
    uncached: int = 0
    read: int = 0
    written: int = 0
    output: int = 0
    late_prompt: int = 0  # from the third step on
    late_read: int = 0
    cache_misses: int = 0
    estimated: int = 0

    def add_call(self, step: int, usage: dict[str, Any]) -> None:
        prompt = int(usage.get("prompt_tokens") or 0)
        read = int(usage.get("cache_read_input_tokens") or 0)
        written = int(usage.get("cache_creation_input_tokens") or 0)
        uncached = int(usage["input_tokens"]) if usage.get("input_tokens") is not None else prompt
        self.steps += 1
        self.prompt += prompt
        self.uncached += uncached
        self.read += read
        self.written += written
        self.output += int(usage.get("completion_tokens") or 0)
        self.cache_misses += int(bool(usage.get("cache_miss")))
        self.estimated += int(bool(usage.get("estimated")))
        if step >= FIRST_READ_STEP:
            self.late_prompt += prompt
            self.late_read += read

    def merge(self, other: TokenTally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def cost(self, prices: dict[str, float] | None) -> float | None:
        if not prices:
            return None
        return dollars(
            prices, uncached=self.uncached, written=self.written, read=self.read, output=self.output
        )

    def price_units(self) -> float:
        """Input cost in units of one uncached input token: uncached 1x, cache write 1.25x, read
        0.1x (Anthropic's 5-minute cache: the multipliers read_prices defaults to)."""
        return round(self.uncached + WRITE_UNITS * self.written + READ_UNITS * self.read, 1)

    def to_json(self, prices: dict[str, float] | None = None) -> dict[str, Any]:
        per = (lambda v: round(v / self.steps, 1)) if self.steps else (lambda v: 0.0)
        out: dict[str, Any] = {
            "steps": self.steps,
            "input_tokens_per_step": per(self.prompt),
            "uncached_input_tokens_per_step": per(self.uncached),
            "cache_read_fraction": round(self.late_read / self.late_prompt, 4) if self.late_prompt else None,
            "output_tokens_per_step": per(self.output),
            "cache_read_input_tokens": self.read,
            "cache_creation_input_tokens": self.written,
            "cache_miss_calls": self.cache_misses,
            "estimated_calls": self.estimated,
            "price_units": self.price_units(),
        }
        cost = self.cost(prices)
        if cost is not None:
            out["cost"] = cost
        return out


def task_tally(task_dir: Path, *, vision: bool = False, verifier: bool = False) -> TokenTally:
    """The usage of every recorded step of one task folder (no trajectory: nothing). With
    `vision`, the calls of a separate vision model instead (the step record's `vision`, look and
    locate with --vision-model): its tokens are priced and reported apart; `steps` then counts
    those calls. With `verifier`, the verifier's calls (the step record's `verifier`), always apart."""
    from webfovea.record import read_trajectory

    tally = TokenTally()
    path = Path(task_dir) / "trajectory.jsonl"
    if not path.exists():
        return tally
    for rec in read_trajectory(path, strict=False):
        if verifier:
            if rec.verifier and rec.verifier.get("usage"):
                tally.add_call(FIRST_READ_STEP, rec.verifier["usage"])
        elif vision:
            for call in rec.vision or []:
                if call.get("separate") and call.get("usage"):
                    tally.add_call(FIRST_READ_STEP, call["usage"])  # one-off calls: no cache warm-up
        elif rec.usage:
            tally.add_call(rec.step, rec.usage)
    return tally


def role_tallies(task_dir: Path) -> dict[str, TokenTally]:
    """The usage of one task folder per role (models/routes.py): act (each step's reply), look
    (every look/locate call, whichever model answered), verify (the verifier's calls),
    summarise (the history-summary calls). One-off calls count as cache-warm steps."""
    from webfovea.record import read_trajectory

    out = {role: TokenTally() for role in ("act", "look", "verify", "summarise")}
    path = Path(task_dir) / "trajectory.jsonl"
    if not path.exists():
        return out
    for rec in read_trajectory(path, strict=False):
        if rec.usage:
            out["act"].add_call(rec.step, rec.usage)
        for call in rec.vision or []:
            if call.get("usage"):
                out["look"].add_call(FIRST_READ_STEP, call["usage"])
        if rec.verifier and rec.verifier.get("usage"):
            out["verify"].add_call(FIRST_READ_STEP, rec.verifier["usage"])
        if rec.compression and rec.compression.get("model_called") and rec.compression.get("usage"):
            out["summarise"].add_call(FIRST_READ_STEP, rec.compression["usage"])
    return out
