"""network/rate_limit_429: the first matching call answers 429 with `Retry-After: s`; a retry
before s seconds answers 429 again. Patience: wait, then retry. The clock is monotonic and
used only for the threshold; the audit records the bucket (early/late), so equal agent
behaviour gives the same log.

Real-world counterpart: a rate limit with Retry-After (HTTP 429).
"""

from __future__ import annotations

import random
import time

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    detour,
)
from webfovea_proving_ground.plan import L, text_has, wait
from webfovea_proving_ground.sessions import Session

BODY = {"ok": False, "error": "Too many requests."}


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    s = session.extra.setdefault("retry_after", rng.choice([2, 3]))
    first = session.extra.get("429_at")
    if first is None:
        session.extra["429_at"] = time.monotonic()
        return Effect(status=429, body=BODY, headers={"Retry-After": str(s)}, note="first")
    if session.extra.get("429_done"):
        return None
    if time.monotonic() - first < s:
        return Effect(status=429, body=BODY, headers={"Retry-After": str(s)}, note="early retry")
    session.extra["429_done"] = True
    return Effect(note="late retry passes")


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    """Wherever the page says "too many requests" (a handler, webfovea_proving_ground/oracle/handlers.py:
    the first matching call may be the page's own first load), wait until it says a retry is
    welcome, then take the refused step again."""
    if not plan:
        return plan
    limited = text_has(L("#error"), "Too many requests")
    # Marked: a misreading oracle may retry at once instead of waiting.
    handler = {"when": limited, "do": [detour(wait(text_has(L("#error"), "try again now")), "wait", limited)]}
    return [{**plan[0], "on": [*plan[0].get("on", []), handler]}, *plan[1:]]


FAMILY = Family(
    name="network/rate_limit_429",
    layer="network",
    primitive="patience",
    summary="429 with Retry-After on the first matching call; a retry before the delay gets 429 again",
    counterpart="a rate limit with Retry-After (HTTP 429)",
    cue="HTTP 429, Retry-After, 'try again in s seconds'",
    recovery="wait for the delay, then try again",
    detect="status",
    status=429,
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
    recover=_recover,
)
