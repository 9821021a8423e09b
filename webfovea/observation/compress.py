"""History compression for long tasks (switch `compress_history`; every observation mode).

Seed 002's numbers: when the estimated context reaches 75% of the model's budget (the
conventions row's `context_tokens`, 280,000 by default), the older turns are summarised by
the task's own model — or the model the `summarise` role is routed to (`--summary-model`,
models/routes.py) — in a separate call (objective, completed
operations, current page state, key information, remaining steps; at most 6,000
characters) and the last 10% of the messages stay verbatim. When the summary call fails
(the endpoint errs, the reply is empty), the task goes on: as many recent messages as fit
are kept, with the task and an instruction to look at the page again before acting; the
same rule answers at once when the role is routed to it (`summarise = "rule"`: no call).

The estimate is ours, not the provider's (it must be known before the call): text at four
characters a token, images at width x height / 750 tokens (Anthropic's rule; other
providers count fewer). Every field of the model input is counted, so text a new
observation mode adds to `ModelInput` is counted too.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from webfovea.config import Component, HarnessConfig
from webfovea.models.base import Model, ModelInput
from webfovea.observation.history import History

COMPRESS_AT = 0.75  # share of the context budget that triggers compression
KEEP_RECENT = 0.10  # share of the messages kept verbatim
SUMMARY_MAX_CHARS = 6000
FALLBACK_FILL = 0.5  # a failed summary keeps recent messages up to this share of the budget
MIN_TO_SUMMARISE = 3  # fewer older messages than this: not worth a model call
CHARS_PER_TOKEN = 4
PIXELS_PER_IMAGE_TOKEN = 750

SUMMARY_SYSTEM = (
    "You are a web agent part-way through a task. Your context is nearly full, so you will now "
    "summarise your own progress; the summary replaces your earlier steps, and you will continue "
    f"the task from it. Write at most {SUMMARY_MAX_CHARS:,} characters of plain text under exactly these "
    "headings:\nObjective:\nCompleted operations:\nCurrent page state:\nKey information:\nRemaining steps:\n"
    "Copy every value, name, filter and page you found or set exactly as you saw it. "
    "Write no Thought and no Action: this reply is not executed."
)
SUMMARY_CLOSING = "Write the summary of your progress now, under the five headings, without an Action."
REFRESH_NOTE = (
    "Earlier steps were dropped to fit the context and could not be summarised. Take a new snapshot "
    "before acting: look at the current page again and re-check what you need before the next action."
)


def _text_tokens(value: Any) -> int:
    if isinstance(value, str):
        return math.ceil(len(value) / CHARS_PER_TOKEN)
    if isinstance(value, Image.Image):
        return value.size[0] * value.size[1] // PIXELS_PER_IMAGE_TOKEN
    if isinstance(value, (list, tuple)):
        return sum(_text_tokens(v) for v in value)
    return 0


_PROMPTS = ("system", "system_tools")  # two versions of one prompt: only one is sent


def estimate_tokens(inp: ModelInput) -> int:
    """The input's size in tokens, estimated from every text and image field it carries (of the
    two system prompts the longer, plus the tool schemas when tools are offered)."""
    total = sum(_text_tokens(getattr(inp, f.name)) for f in dataclasses.fields(inp) if f.name not in _PROMPTS)
    total += max(_text_tokens(getattr(inp, name, "")) for name in _PROMPTS)
    for tool in getattr(inp, "tools", None) or []:
        total += _text_tokens(tool.description) + _text_tokens(json.dumps(tool.parameters))
    return total


def keep_count(messages: int) -> int:
    """How many of the most recent messages stay verbatim: 10%, at least one."""
    return max(1, math.ceil(messages * KEEP_RECENT))


def is_due(inp: ModelInput, config: HarnessConfig) -> bool:
    """Compression is on, the context reached 75% of the budget, and there is enough to summarise."""
    if not config.on(Component.compress_history):
        return False
    if len(inp.history) - keep_count(len(inp.history)) < MIN_TO_SUMMARISE:
        return False
    return estimate_tokens(inp) >= COMPRESS_AT * config.context_tokens


def summary_request(inp: ModelInput, older: list[str], budget: int) -> ModelInput:
    """The compression call: the same model, asked to summarise the older turns (and any earlier
    summary) with the current view in front of it. Oldest turns give way if it would not fit."""
    # A plain text call: no tools to answer with, and not part of a client's append-only transcript.
    req = dataclasses.replace(
        inp,
        system=SUMMARY_SYSTEM,
        history=list(older),
        purpose="summary",
        closing=SUMMARY_CLOSING,
        images=list(inp.images[-1:]),
        tools=[],
        system_tools="",
        append_history=False,
    )
    while len(req.history) > 1 and estimate_tokens(req) > budget:
        req = dataclasses.replace(req, history=req.history[1:], history_start=req.history_start + 1)
    return req


def clean_summary(text: str | None) -> str | None:
    """The summary as the model wrote it, cut to 6,000 characters at a line end; None if unusable."""
    body = (text or "").strip()
    if len(body) < 20:  # empty or a stub: a malformed summary, not progress
        return None
    if len(body) > SUMMARY_MAX_CHARS:
        cut = body.rfind("\n", 0, SUMMARY_MAX_CHARS - 2)
        body = body[: cut if cut > SUMMARY_MAX_CHARS // 2 else SUMMARY_MAX_CHARS - 2].rstrip() + "\n…"
    return body


@dataclass
class Compression:
    """One compression, as recorded in the trajectory (the step record's `compression`)."""

    status: str  # "summarised", "fallback" (the call failed) or "rule" (summarise = "rule": no call)
    tokens_before: int
    tokens_after: int = 0
    budget: int = 0
    messages_before: int = 0
    summarised: int = 0  # messages the summary (or the refresh note) now stands for
    kept: int = 0  # messages kept verbatim
    raw_reply: str | None = None  # the summary call's reply as the model wrote it (replay replays it)
    summary: str | None = None  # what the model is shown from now on in place of the older turns
    usage: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0
    model_called: bool = False
    call_usage: Any = field(
        default=None, repr=False
    )  # the summary call's models.base.Usage (not recorded twice)

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out.pop("call_usage", None)
        return out


def _fallback_keep(history: History, inp: ModelInput, budget: int, note: str) -> int:
    """How many recent messages fit in FALLBACK_FILL of the budget beside the task and the note."""
    target = FALLBACK_FILL * budget
    base = estimate_tokens(dataclasses.replace(inp, history=[], summary=note))
    keep, total = 0, base
    for reply in reversed(history.replies):
        total += _text_tokens(reply) + 3  # the "Step N:" label
        if total > target:
            break
        keep += 1
    return keep


async def _summarise(event: Compression, model: Model, request: ModelInput) -> str | None:
    """The summary call, recorded in `event`; None when it failed or the reply is no summary."""
    event.model_called = True
    try:
        reply = await model.next_reply(request)
    except Exception as e:  # noqa: BLE001 - a failed summary must not end the task
        event.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        return None
    event.raw_reply = reply.text
    event.usage = reply.usage.to_json()
    event.call_usage = reply.usage
    summary = clean_summary(reply.text)
    if summary is None:
        event.error = "the summary reply was empty or too short to be a summary"
    return summary


async def compress(
    history: History, inp: ModelInput, model: Model | None, config: HarnessConfig
) -> Compression:
    """Replace the older turns of `history` by a summary the model writes; on failure, by the
    refresh note. Never raises for a model failure: the task goes on either way. `model` None:
    the summarise role is routed to the rule (models/routes.py), so the refresh note at once."""
    t0 = time.monotonic()
    budget = config.context_tokens
    n = len(history.replies)
    keep = keep_count(n)
    older = history.replies[: n - keep]
    event = Compression(
        status="summarised", tokens_before=estimate_tokens(inp), budget=budget, messages_before=n
    )
    summary = None if model is None else await _summarise(event, model, summary_request(inp, older, budget))
    if summary is not None:
        event.summarised = history.replace_older(keep, summary)
    else:
        event.status = "rule" if model is None else "fallback"
        note = REFRESH_NOTE
        if history.summary and REFRESH_NOTE not in history.summary:
            note = history.summary + "\n\n" + REFRESH_NOTE
        summary = note
        event.summarised = history.replace_older(_fallback_keep(history, inp, budget, note), note)
    event.kept = len(history.replies)
    event.summary = summary
    event.tokens_after = estimate_tokens(
        dataclasses.replace(
            inp, history=list(history.replies), summary=summary, history_start=history.first_step
        )
    )
    event.seconds = round(time.monotonic() - t0, 4)
    return event
