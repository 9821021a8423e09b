"""Model-call retries: one failed call must not end a task (the paper lost 1.3% of episodes at step 0).

Retried: HTTP 403 (some gateways answer 403 under load), 408, 429, every 5xx,
connection errors, protocol errors and timeouts. Any other 4xx fails at once with
the server's message: a bad request does not get better by repeating it.

The loop is ours rather than tenacity's so that `Retry-After` (seconds or an HTTP
date) and the total time budget are handled in one visible place: a wait never
runs past the budget, and when no useful time would be left after the wait we
give up at once instead of sleeping towards a certain failure.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from webfovea.models.base import ModelError
from webfovea.models.endpoint import describe_status
from webfovea.models.outbound import outbound

log = logging.getLogger(__name__)

# A model's answer is a few kilobytes, a few megabytes with images echoed back; a body past
# this is a broken or hostile endpoint, not a reply (one that streams forever grew the client
# to gigabytes in seconds). Counted after decompression, so a gzip bomb is cut too.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
# A Retry-After longer than this (or not a finite number) is not a wait we honour: our own
# backoff applies instead (`nan` once made every retry immediate).
MAX_RETRY_AFTER_S = 24 * 3600.0


class ResponseTooLarge(ModelError):
    """The server's answer passed MAX_RESPONSE_BYTES: not read further, and not retried."""


class ConnectionFailed(Exception):
    """A transport could not reach the server or lost it mid-answer (retried)."""


# One attempt: given the seconds it may take, the server's answer (any status).
Send = Callable[[float], Awaitable[httpx.Response]]


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 6
    budget_s: float = 240.0  # total wall time for all attempts and waits of one call
    base_delay_s: float = 1.0  # first backoff; doubles per attempt
    max_delay_s: float = 30.0
    min_attempt_s: float = 1.0  # give up when less than this would be left for the next attempt

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.budget_s <= 0:
            raise ValueError("budget_s must be positive")

    def backoff(self, attempt: int) -> float:
        """Wait after the `attempt`-th failure (1-based): exponential, with jitter.

        Jitter spreads out the workers of one run that all hit the same rate limit.
        """
        ceiling = min(self.max_delay_s, self.base_delay_s * 2.0 ** (attempt - 1))
        return ceiling * random.uniform(0.5, 1.0)


def retryable_status(status: int) -> bool:
    return status in (403, 408, 429) or 500 <= status <= 599


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); None if absent/bad."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return seconds if math.isfinite(seconds) and 0.0 <= seconds <= MAX_RETRY_AFTER_S else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    now = time.time() if now is None else now
    wait = when.timestamp() - now
    return max(0.0, wait) if wait <= MAX_RETRY_AFTER_S else None


async def _post_capped(
    client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str], timeout_s: float
) -> httpx.Response:
    """POST and read the answer, at most MAX_RESPONSE_BYTES of it (declared or streamed)."""
    async with client.stream("POST", url, json=body, headers=headers, timeout=httpx.Timeout(timeout_s)) as r:
        declared = r.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
            raise ResponseTooLarge(too_large(f"declares {int(declared):,} bytes"))
        data = bytearray()
        async for chunk in r.aiter_bytes():
            data += chunk
            if len(data) > MAX_RESPONSE_BYTES:
                raise ResponseTooLarge(too_large("sent more"))
    # The body as read (decoded): its encoding and length headers no longer describe it.
    kept = [
        (k, v) for k, v in r.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")
    ]
    return httpx.Response(
        r.status_code, headers=kept, content=bytes(data), request=r.request, extensions=r.extensions
    )


def too_large(what: str) -> str:
    return (
        f"the server's answer {what}, past the {MAX_RESPONSE_BYTES // (1024 * 1024)} MB a model reply may "
        "take; not read further (a broken or hostile endpoint, not retried)"
    )


async def post_with_retry(
    client: httpx.AsyncClient,
    url: str,
    *,
    json_body: dict[str, Any],
    headers: dict[str, str],
    policy: RetryPolicy,
    timeout_s: float,
    label: str,
) -> httpx.Response:
    """POST with httpx until a 2xx answer, within the policy (the judge's transport)."""

    body = outbound(json_body)  # the judge's calls: the known secrets are scrubbed here

    async def send(attempt_s: float) -> httpx.Response:
        return await _post_capped(client, url, body, headers, attempt_s)

    return await send_with_retry(send, policy=policy, timeout_s=timeout_s, label=label)


async def send_with_retry(send: Send, *, policy: RetryPolicy, timeout_s: float, label: str) -> httpx.Response:
    """Call `send` until a 2xx answer, within the policy; raise ModelError with the last failure otherwise.

    `label` names the model in messages (`openai:gpt-4o`). Each attempt is bounded by
    `timeout_s` and by what is left of the budget, as a whole (not per socket read),
    so a server that drips bytes cannot hold the call past the budget.
    """
    start = time.monotonic()
    deadline = start + policy.budget_s
    last_failure = "no attempt made"
    # An attempt cut short by the budget often ends in a timeout; the status the
    # server gave before that is the more useful explanation, so keep it too.
    last_status: str | None = None
    attempts = 0
    while attempts < policy.max_attempts:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        attempts += 1
        attempt_timeout = min(timeout_s, remaining)
        retry_after: float | None = None
        try:
            async with asyncio.timeout(attempt_timeout):
                resp = await send(attempt_timeout)
        except ResponseTooLarge as exc:
            raise ModelError(f"{label}: {exc}") from None
        except (TimeoutError, httpx.TimeoutException):
            last_failure = f"timed out after {attempt_timeout:.1f} s"
        except (httpx.NetworkError, httpx.RemoteProtocolError, ConnectionFailed) as exc:
            last_failure = f"connection failed ({type(exc).__name__}: {exc or 'no detail'})"
        else:
            if resp.is_success:
                return resp
            if not retryable_status(resp.status_code):
                raise ModelError(f"{label}: {describe_status(resp)} (not retried)")
            last_failure = last_status = describe_status(resp)
            retry_after = parse_retry_after(resp.headers.get("retry-after"))
        if attempts >= policy.max_attempts:
            break
        wait = retry_after if retry_after is not None else policy.backoff(attempts)
        remaining = deadline - time.monotonic()
        wait = min(wait, max(0.0, remaining))
        if remaining - wait < policy.min_attempt_s:
            last_failure += (
                f"; the next attempt would start with under {policy.min_attempt_s:g} s of budget left"
                if retry_after is None
                else f"; the server asked to wait {retry_after:.1f} s, beyond the budget"
            )
            break
        log.info("%s: attempt %d failed (%s); retrying in %.1f s", label, attempts, last_failure, wait)
        await asyncio.sleep(wait)
    elapsed = time.monotonic() - start
    explanation = f"last failure: {last_failure}"
    if last_status is not None and not last_failure.startswith(last_status):
        explanation += f"; last server answer: {last_status}"
    raise ModelError(
        f"{label}: gave up after {attempts} attempt{'s' if attempts != 1 else ''} "
        f"in {elapsed:.1f} s; {explanation}"
    )
