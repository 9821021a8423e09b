"""Replies built from the official SDKs' own response classes, dumped to the JSON the API sends.

The loopback model servers and the tests' scripted fakes answer through these, so a reply
shape the real API documents (text only, tool calls only, both, several calls, thinking,
a cut-off reply, a refusal, a paused turn, an incomplete response, an error body) is the
SDK's shape and not our guess of it: a builder that strays fails the SDK's validation here.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

_ids = itertools.count(1)


def _next_id(prefix: str) -> str:
    return f"{prefix}{next(_ids):06d}"


# Chat Completions ---------------------------------------------------------------------------


def chat_tool_call(name: str, arguments: dict[str, Any] | str, call_id: str | None = None) -> dict[str, Any]:
    """One `ChatCompletionMessageFunctionToolCall` (arguments: JSON text, as the API writes them)."""
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = ChatCompletionMessageFunctionToolCall(
        id=call_id or _next_id("call_"), type="function", function={"name": name, "arguments": args}
    )
    return call.model_dump(mode="json")


def chat_completion(  # noqa: PLR0913 -- one keyword per documented field of a choice
    text: str | None,
    *,
    model: str = "gpt-4o",
    tool_calls: list[dict[str, Any]] | None = None,
    finish_reason: str | None = None,
    refusal: str | None = None,
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    cached_tokens: int | None = None,
) -> dict[str, Any]:
    """A `ChatCompletion` with one choice, as JSON (finish_reason: `tool_calls` when there are
    calls, else `stop`, unless given: `length`, `content_filter`)."""
    from openai.types.chat import ChatCompletion

    finish = finish_reason or ("tool_calls" if tool_calls else "stop")
    usage: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if cached_tokens is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
    completion = ChatCompletion.model_validate(
        {
            "id": _next_id("chatcmpl-"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": finish,
                    "message": {
                        "role": "assistant",
                        "content": text,
                        "refusal": refusal,
                        "tool_calls": tool_calls or None,
                    },
                }
            ],
            "usage": usage,
        }
    )
    return completion.model_dump(mode="json", exclude_none=True) | {
        "choices": [completion.choices[0].model_dump(mode="json")]
    }


def openai_error(
    message: str, kind: str = "invalid_request_error", code: str | None = None
) -> dict[str, Any]:
    """OpenAI's documented error body: {"error": {message, type, param, code}}."""
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


# Messages -----------------------------------------------------------------------------------


def text_block(text: str) -> dict[str, Any]:
    from anthropic.types import TextBlock

    return TextBlock(type="text", text=text).model_dump(mode="json", exclude_none=True)


def tool_use_block(name: str, input: dict[str, Any], block_id: str | None = None) -> dict[str, Any]:
    from anthropic.types import ToolUseBlock

    block = ToolUseBlock(type="tool_use", id=block_id or _next_id("toolu_"), name=name, input=input)
    return block.model_dump(mode="json", exclude_none=True)


def thinking_block(thinking: str, signature: str = "sig-test") -> dict[str, Any]:
    from anthropic.types import ThinkingBlock

    return ThinkingBlock(type="thinking", thinking=thinking, signature=signature).model_dump(mode="json")


def redacted_thinking_block(data: str = "ENCRYPTED") -> dict[str, Any]:
    from anthropic.types import RedactedThinkingBlock

    return RedactedThinkingBlock(type="redacted_thinking", data=data).model_dump(mode="json")


def anthropic_message(
    *content: dict[str, Any],
    stop_reason: str | None = None,
    model: str = "claude-sonnet-4-6",
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A `Message` as JSON (stop_reason: `tool_use` when it holds a call, else `end_turn`, unless
    given: `max_tokens`, `refusal`, `pause_turn`, `model_context_window_exceeded`)."""
    from anthropic.types import Message

    calls = any(b.get("type") == "tool_use" for b in content)
    message = Message.model_validate(
        {
            "id": _next_id("msg_"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": list(content),
            "stop_reason": stop_reason or ("tool_use" if calls else "end_turn"),
            "stop_sequence": None,
            "usage": usage or {"input_tokens": 13, "output_tokens": 5},
        }
    )
    return message.model_dump(mode="json", exclude_none=True) | {"stop_sequence": None}


def anthropic_error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """Anthropic's documented error body: {"type": "error", "error": {type, message}}."""
    return {"type": "error", "error": {"type": kind, "message": message}}


# Responses ----------------------------------------------------------------------------------


def responses_response(
    *output: dict[str, Any],
    response_id: str | None = None,
    model: str = "computer-use-preview",
    incomplete: str | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A Responses API `Response` as JSON; `incomplete`: its reason (`max_output_tokens`)."""
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": response_id or _next_id("resp_"),
            "object": "response",
            "created_at": time.time(),
            "model": model,
            "output": list(output),
            "parallel_tool_calls": False,
            "tool_choice": "auto",
            "tools": [],
            "status": "incomplete" if incomplete else "completed",
            "incomplete_details": {"reason": incomplete} if incomplete else None,
            "usage": usage
            or {
                "input_tokens": 2000,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens": 20,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 2020,
            },
        }
    )
    return response.model_dump(mode="json", exclude_none=True)


def output_message(text: str, refusal: str | None = None) -> dict[str, Any]:
    """A `message` output item with one output_text (or refusal) part."""
    from openai.types.responses import ResponseOutputMessage

    part: dict[str, Any] = (
        {"type": "refusal", "refusal": refusal}
        if refusal
        else {"type": "output_text", "text": text, "annotations": []}
    )
    item = ResponseOutputMessage.model_validate(
        {
            "id": _next_id("msg_"),
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [part],
        }
    )
    return item.model_dump(mode="json", exclude_none=True)


def computer_call(
    call_id: str, *actions: dict[str, Any], legacy: bool = False, checks: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A `computer_call` item: the GA tool's `actions[]` batch, or the preview's one `action`."""
    from openai.types.responses import ResponseComputerToolCall

    item: dict[str, Any] = {
        "type": "computer_call",
        "id": "cu_" + call_id,
        "call_id": call_id,
        "status": "completed",
        "pending_safety_checks": checks or [],
    }
    item["action" if legacy else "actions"] = actions[0] if legacy else list(actions)
    return ResponseComputerToolCall.model_validate(item).model_dump(mode="json", exclude_none=True)


def function_call(call_id: str, name: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
    from openai.types.responses import ResponseFunctionToolCall

    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    item = ResponseFunctionToolCall(
        type="function_call",
        id="fc_" + call_id,
        call_id=call_id,
        name=name,
        arguments=args,
        status="completed",
    )
    return item.model_dump(mode="json", exclude_none=True)


def reasoning_item(summary: str = "") -> dict[str, Any]:
    from openai.types.responses import ResponseReasoningItem

    item = ResponseReasoningItem.model_validate(
        {
            "type": "reasoning",
            "id": _next_id("rs_"),
            "summary": [{"type": "summary_text", "text": summary}] if summary else [],
        }
    )
    return item.model_dump(mode="json", exclude_none=True)
