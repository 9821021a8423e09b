"""Gemini replies built from the official SDK's own types (`google.genai.types`), dumped to the
JSON the API sends (camelCase, bytes as base64), and the Gemini request check.

The loopback Gemini server and the tests' scripted fake answer through these, so a reply shape
the API documents (text parts, thought parts, function calls, several candidates, a finish
reason other than STOP, a blocked prompt, no candidates, an error body) is the SDK's shape and
not our guess: a builder that strays fails the SDK's validation here. A request is checked field
by field against the SDK's types for the wire body (`Content`, `GenerationConfig`, `Tool`,
`ToolConfig`, `SafetySetting`: pydantic models that forbid unknown keys), unknown top-level
keys rejected as the API rejects them.
"""

from __future__ import annotations

import itertools
from typing import Any

from pydantic import ValidationError

_ids = itertools.count(1)

# The wire body of generateContent: its fields and the SDK type each one holds.
_REQUEST_FIELDS = {
    "contents": ("Content", True),
    "systemInstruction": ("Content", False),
    "generationConfig": ("GenerationConfig", False),
    "tools": ("Tool", True),
    "toolConfig": ("ToolConfig", False),
    "safetySettings": ("SafetySetting", True),
}


def _dump(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = obj.model_dump(mode="json", by_alias=True, exclude_none=True)
    return out


def text_part(text: str) -> dict[str, Any]:
    from google.genai import types

    return _dump(types.Part(text=text))


def thought_part(text: str, signature: bytes = b"sig-test") -> dict[str, Any]:
    """A thinking part: `thought: true`, with the signature Gemini attaches to it."""
    from google.genai import types

    return _dump(types.Part(text=text, thought=True, thought_signature=signature))


def function_call_part(name: str, args: dict[str, Any], call_id: str | None = None) -> dict[str, Any]:
    from google.genai import types

    return _dump(types.Part(function_call=types.FunctionCall(name=name, args=args, id=call_id)))


def candidate(*parts: dict[str, Any], finish_reason: str = "STOP", index: int = 0) -> dict[str, Any]:
    """One `Candidate` (parts: none for a withheld reply, which has no content)."""
    from google.genai import types

    content = (
        types.Content(role="model", parts=[types.Part.model_validate(p) for p in parts]) if parts else None
    )
    return _dump(
        types.Candidate(content=content, finish_reason=types.FinishReason(finish_reason), index=index)
    )


def gemini_response(
    *candidates: dict[str, Any],
    model: str = "gemini-2.5-flash",
    prompt_tokens: int = 1000,
    output_tokens: int = 20,
    cached_tokens: int | None = None,
    thoughts_tokens: int | None = None,
    block_reason: str | None = None,
) -> dict[str, Any]:
    """A `GenerateContentResponse` as JSON; `block_reason`: the prompt was blocked (give no candidates)."""
    from google.genai import types

    feedback = (
        types.GenerateContentResponsePromptFeedback(
            block_reason=types.BlockedReason(block_reason), block_reason_message="blocked by the test"
        )
        if block_reason
        else None
    )
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt_tokens,
        candidates_token_count=output_tokens if candidates else None,
        cached_content_token_count=cached_tokens,
        thoughts_token_count=thoughts_tokens,
        total_token_count=prompt_tokens + output_tokens + (thoughts_tokens or 0),
    )
    response = types.GenerateContentResponse(
        candidates=[types.Candidate.model_validate(c) for c in candidates] or None,
        prompt_feedback=feedback,
        usage_metadata=usage,
        model_version=model,
        response_id=f"resp-{next(_ids):06d}",
    )
    return _dump(response)


def gemini_text(text: str, **usage: Any) -> dict[str, Any]:
    """The everyday reply: one candidate, one text part, STOP."""
    return gemini_response(candidate(text_part(text)), **usage)


def gemini_error(code: int, message: str, status: str) -> dict[str, Any]:
    """Google's documented error body: {"error": {code, message, status}}."""
    return {"error": {"code": code, "message": message, "status": status}}


def gemini_request_errors(body: Any) -> str | None:
    """Why the API would reject a generateContent body (one line), or None."""
    from google.genai import types

    if not isinstance(body, dict):
        return "request body: a JSON object is required"
    unknown = sorted(set(body) - set(_REQUEST_FIELDS))
    if unknown:
        return f'Invalid JSON payload received. Unknown name "{unknown[0]}": Cannot find field.'
    if not body.get("contents"):
        return "contents is not specified"
    for name, (type_name, repeated) in _REQUEST_FIELDS.items():
        if name not in body:
            continue
        model = getattr(types, type_name)
        values = body[name] if repeated else [body[name]]
        if repeated and not isinstance(values, list):
            return f"{name}: a list is required"
        for i, value in enumerate(values):
            try:
                model.model_validate(value)
            except ValidationError as e:
                first = e.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                return f"{name}[{i}].{where}: {first['msg']} (request does not match the SDK's {type_name})"
    for i, content in enumerate(body["contents"]):
        if content.get("role") not in ("user", "model"):
            return f"contents[{i}].role: {content.get('role')!r}: use user or model"
    return None
