"""Reading a Gemini `GenerateContentResponse` (the SDK's own object) into a ModelReply.

- text parts: the reply text, in order; parts marked `thought` (Gemini's thinking) are never
  the answer, only counted in a note;
- function call parts: tool calls, in order (their `id` when the API gives one);
- several candidates: the first (lowest `index`) is used, the others noted;
- `finishReason` other than STOP: the reply is cut off and never executed. MAX_TOKENS gets
  more room at the next call; SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII ... mean
  the provider withheld (part of) the reply, noted as such; MALFORMED_FUNCTION_CALL is a call
  the model could not write;
- no candidates and `promptFeedback.blockReason`: the prompt itself was blocked, a ModelError
  that names the reason; no candidates otherwise: an empty reply (asked again);
- usage: `promptTokenCount` (cached part included) split into uncached and
  `cachedContentTokenCount`; output is `candidatesTokenCount` plus `thoughtsTokenCount`
  (thinking is billed as output).
"""

from __future__ import annotations

from typing import Any

from webfovea.models.base import ModelError, ModelReply, ToolCall, Usage
from webfovea.models.http_model import as_int

COMPLETE = ("STOP", "FINISH_REASON_UNSPECIFIED", "")
WITHHELD = (
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION",
    "MODEL_ARMOR",
    "LANGUAGE",
)


def enum_name(value: Any) -> str:
    """An SDK enum (or the raw string an unknown value stays) as its API name."""
    return str(getattr(value, "value", value) or "")


def read_usage(meta: Any) -> Usage:
    if meta is None:
        return Usage(estimated=True)
    prompt = as_int(meta.prompt_token_count)
    cached = min(as_int(meta.cached_content_token_count), prompt)
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=as_int(meta.candidates_token_count) + as_int(meta.thoughts_token_count),
        input_tokens=prompt - cached,
        cache_read_input_tokens=cached,
    )


def blocked_prompt(response: Any, label: str) -> ModelError | None:
    feedback = response.prompt_feedback
    reason = enum_name(feedback.block_reason) if feedback is not None else ""
    if not reason or reason == "BLOCKED_REASON_UNSPECIFIED":
        return None
    why = f": {feedback.block_reason_message}" if feedback.block_reason_message else ""
    return ModelError(
        f"{label}: the API blocked the prompt (promptFeedback.blockReason={reason}{why}); "
        "nothing was generated"
    )


def cut_off_reason(finish: str) -> str | None:
    if finish in COMPLETE:
        return None
    if finish in WITHHELD:
        return f"finishReason={finish} (the provider withheld the reply)"
    if finish == "MALFORMED_FUNCTION_CALL":
        return f"finishReason={finish} (the model wrote a function call the API could not read)"
    return f"finishReason={finish}"


def read_reply(response: Any, label: str) -> ModelReply:
    usage = read_usage(response.usage_metadata)
    candidates = list(response.candidates or [])
    if not candidates:
        blocked = blocked_prompt(response, label)
        if blocked is not None:
            raise blocked
        return ModelReply(text="", usage=usage, notes=["no candidates in the response"])
    notes: list[str] = []
    if len(candidates) > 1:
        candidates.sort(key=lambda c: as_int(c.index))
        notes.append(f"{len(candidates)} candidates: the first is used")
    candidate = candidates[0]
    parts = list(candidate.content.parts or []) if candidate.content is not None else []
    texts: list[str] = []
    calls: list[ToolCall] = []
    thoughts = 0
    for part in parts:
        if part.thought:
            thoughts += 1
            continue
        if part.text:
            texts.append(part.text)
        call = part.function_call
        if call is not None:
            args = call.args if isinstance(call.args, dict) else {"_": call.args}
            calls.append(ToolCall(str(call.id or f"call_{len(calls)}"), str(call.name or ""), dict(args)))
    if thoughts:
        notes.append(f"thinking: {thoughts} thought part(s), not part of the reply")
    finish = enum_name(candidate.finish_reason)
    cut_off = cut_off_reason(finish)
    if finish in WITHHELD:
        notes.append(
            f"refusal: finishReason={finish}"
            + (f" ({candidate.finish_message})" if candidate.finish_message else "")
        )
    return ModelReply(text="".join(texts), usage=usage, tool_calls=calls, notes=notes, cut_off=cut_off)
