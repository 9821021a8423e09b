"""The oracle under a misbehaving site: patience by default, and three realistic quirks.

BreakingWeb (seed 003, docs/glossary.md) measured what real agents do when a site misbehaves. The default
oracle decides right: when the page says it is rate-limited ("Too many requests … try again
in 3 s") it waits that long before it retries. The quirks, each off by default, make it
behave like the agents the seed measured; each fires per episode with its rate, drawn from
(seed, task_id), so a run is reproducible:

- `trust_toast_rate` — trusts the save: after the step that submits (a plan step with
  `"saves": true`, else the last step before the answer) it does not look at what the page
  answered and goes straight to `finished` (a 503 or a validation error goes unseen);
- `fast_retry_rate` — retries at once after a 429, without waiting for Retry-After;
- `reclick_rate` — a click that did not take effect is clicked again and again, never given
  up, until the harness stops the task (step budget, or a breaker).

`realistic=true` turns all three on at REALISTIC rates. The rates travel in the model spec
(`oracle:trust_toast_rate=0.6,…`), which run.json records; `log` lists the quirks that fired.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

RATE_KNOBS = ("trust_toast_rate", "fast_retry_rate", "reclick_rate")
# Rates of the `realistic` preset: BreakingWeb's text agents took a false done signal in
# 54-85% of runs and retried without backing off in most rate-limited ones.
REALISTIC: dict[str, float] = {"trust_toast_rate": 0.6, "fast_retry_rate": 0.6, "reclick_rate": 0.5}
RECLICK_LIMIT = 1000  # "never given up": far beyond any step budget
WAIT_ACTION_S = 2.0  # what one wait() gives (actions/control.py)

_RATE_LIMITED = re.compile(r"too many requests|rate.?limit|\b429\b|retry.?after|slow down", re.IGNORECASE)
_SECONDS = re.compile(r"(\d+(?:\.\d+)?)\s*(?:s\b|sec\b|secs\b|seconds?\b)", re.IGNORECASE)
_RETRY_AFTER = re.compile(r"retry.?after:?\s*(\d+(?:\.\d+)?)", re.IGNORECASE)
_SUBMITS = {"click", "fill", "type", "select"}


@dataclass
class Stress:
    task_id: str
    seed: int = 0
    rates: dict[str, float] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        rng = random.Random(f"oracle-stress:{self.seed}:{self.task_id}")
        draws = {name: rng.random() for name in RATE_KNOBS}  # drawn always: one knob never shifts another
        for name in RATE_KNOBS:
            rate = float(self.rates.get(name, 0.0))
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {rate!r}")
        self.fires = {name: draws[name] < float(self.rates.get(name, 0.0)) for name in RATE_KNOBS}
        self._waited = 0

    @classmethod
    def from_knobs(cls, task_id: str, seed: int, knobs: dict[str, Any]) -> Stress:
        rates = dict(REALISTIC) if knobs.get("realistic") else {}
        rates.update({k: float(knobs[k]) for k in RATE_KNOBS if knobs.get(k) is not None})
        return cls(task_id=task_id, seed=seed, rates=rates)

    def _fired(self, name: str, **data: Any) -> None:
        self.log.append({"quirk": name.removesuffix("_rate"), **data})

    # -- trusting the toast ----------------------------------------------------------------

    def trusts_save(self, plan: list[dict[str, Any]], cursor: int) -> bool:
        """True when the step at `cursor` is the save and this episode does not look at its result."""
        if not self.fires["trust_toast_rate"] or cursor >= len(plan):
            return False
        if plan[cursor].get("saves") or (
            not any(s.get("saves") for s in plan)
            and cursor + 1 < len(plan)
            and plan[cursor + 1].get("op") == "answer"
            and plan[cursor].get("op") in _SUBMITS
        ):
            self._fired("trust_toast_rate", step=cursor)
            return True
        return False

    # -- retries -----------------------------------------------------------------------------

    def retry_limit(self, step: dict[str, Any], default: int) -> int:
        if self.fires["reclick_rate"] and step.get("op") == "click":
            return RECLICK_LIMIT
        return default

    async def wait_before_retry(self, page: Page) -> bool:
        """True when the oracle should wait() before the retry it is about to make: the page
        says it is rate-limited and the delay it names has not yet passed (one wait() per call,
        as many as cover the delay). Never with the fast-retry quirk."""
        try:
            text = str(await page.evaluate("document.body ? document.body.innerText : ''"))[:20_000]
        except Exception:
            return False
        if not _RATE_LIMITED.search(text):
            self._waited = 0
            return False
        if self.fires["fast_retry_rate"]:
            self._fired("fast_retry_rate")
            return False
        named = [float(m.group(1)) for m in (*_SECONDS.finditer(text), *_RETRY_AFTER.finditer(text))]
        seconds = max(named, default=WAIT_ACTION_S)
        needed = max(1, math.ceil(min(seconds, 30.0) / WAIT_ACTION_S))
        if self._waited < needed:
            self._waited += 1
            return True
        self._waited = 0
        return False
