"""`openai:MODEL` — an OpenAI-compatible Chat Completions client with inline images.

Works against api.openai.com and the many servers that speak the same protocol
(vLLM, SGLang, Ollama, LiteLLM, OpenRouter, the challenge's gateway).
"""

from __future__ import annotations

import json
from typing import Any

from webfovea.models.base import ModelError, ModelInput, ModelReply, ToolCall, Usage
from webfovea.models.http_model import HttpModel, as_int
from webfovea.models.messages import openai_messages
from webfovea.models.sdk_transport import SdkErrors, http_client

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"


def reply_text(message: dict[str, Any]) -> str:
    """Text of an assistant message whose content is a string, a list of parts, or absent."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and part.get("type") in ("text", "output_text", None):
                texts.append(str(part.get("text") or ""))
        return "".join(texts)
    refusal = message.get("refusal")
    # A refusal is still a reply: the parser rejects it and the model sees why next step.
    return str(refusal) if refusal else ""


# `length` and `content_filter` are OpenAI's; some compatible servers pass a backend's own
# `max_tokens` through.
CUT_OFF_REASONS = ("length", "content_filter", "max_tokens")


def chat_tool_calls(message: dict[str, Any]) -> list[ToolCall]:
    """The message's function tool calls (`tool_calls[].function`: a name and JSON arguments),
    in order. A server may answer with calls and no text at all: they are the reply."""
    calls: list[ToolCall] = []
    for i, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict):
            continue  # a custom tool call: we offer none
        args = json_arguments(fn.get("arguments"))
        calls.append(ToolCall(str(call.get("id") or f"call_{i}"), str(fn.get("name") or ""), args))
    return calls


def json_arguments(raw: Any) -> dict[str, Any]:
    """Tool-call arguments as written (a JSON object in a string); unreadable ones are kept
    under `_unreadable` so the parser rejects them with a reason the model reads."""
    if isinstance(raw, dict):
        return raw
    try:
        args = json.loads(raw or "{}")
    except (ValueError, RecursionError):
        return {"_unreadable": str(raw)[:2000]}
    return args if isinstance(args, dict) else {"_": args}


def openai_sdk_client(model: HttpModel, key: str | None) -> Any:
    """`openai.AsyncOpenAI` for this model: its base URL, its key, our capped HTTP client, no
    retries of its own. A loopback server may need no key: the SDK insists on one, so it gets a
    placeholder and the header is left out (no made-up credential is sent)."""
    import openai

    return openai.AsyncOpenAI(
        base_url=model.base_url,
        api_key=key or "none",
        max_retries=0,
        timeout=model.timeout_s,
        http_client=http_client(model.timeout_s),
    )


def openai_sdk_headers(model: HttpModel) -> dict[str, Any]:
    """Our own client without a key: the SDK's placeholder credential is left out."""
    import openai

    return {"Authorization": openai.omit} if model.keyless else {}


def openai_errors() -> SdkErrors:
    import openai

    return SdkErrors(openai.APIStatusError, openai.APITimeoutError, openai.APIConnectionError)


class OpenAIModel(HttpModel):
    provider = "openai"
    base_url_env = "OPENAI_BASE_URL"
    api_key_env = "OPENAI_API_KEY"
    default_base_url = DEFAULT_OPENAI_BASE_URL
    example_model = "gpt-4o"

    def __init__(self, model: str, *, image_detail: str | None = None, **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.image_detail = image_detail

    sdk_path = "/chat/completions"

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}{self.sdk_path}"

    def new_sdk_client(self) -> Any:
        return openai_sdk_client(self, self._api_key)

    def sdk_headers(self) -> dict[str, Any]:
        return openai_sdk_headers(self)

    def sdk_errors(self) -> SdkErrors:
        return openai_errors()

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": openai_messages(inp, image_detail=self.image_detail),
            self.conventions.max_tokens_field: self.output_budget(),
        }
        if self.conventions.send_temperature:
            body["temperature"] = self.temperature
        body.update(self.extra_body)
        return body

    def headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json"}
        if self._api_key:
            h["Authorization"] = f"Bearer {self._api_key}"
        return h

    def read_reply(self, data: dict[str, Any]) -> ModelReply:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ModelError(f"{self.label}: response has no choices: {json.dumps(data)[:200]}")
        choice = choices[0]
        message = choice.get("message") or {}
        message = message if isinstance(message, dict) else {}
        text = reply_text(message)
        notes = [f"refusal: {message['refusal']}"] if message.get("refusal") else []
        finish = choice.get("finish_reason")
        usage = data.get("usage") or {}
        prompt = as_int(usage.get("prompt_tokens"))
        details = usage.get("prompt_tokens_details")
        split: dict[str, Any] = {}
        if isinstance(details, dict) and "cached_tokens" in details:
            # OpenAI's automatic prefix cache: the cached part is inside prompt_tokens and billed
            # at the cache-read price. Servers that do not report it are left unsplit.
            cached = min(as_int(details.get("cached_tokens")), prompt)
            split = {"input_tokens": prompt - cached, "cache_read_input_tokens": cached}
        return ModelReply(
            text=text,
            usage=Usage(
                prompt_tokens=prompt, completion_tokens=as_int(usage.get("completion_tokens")), **split
            ),
            tool_calls=chat_tool_calls(message),
            notes=notes,
            # `length`: the token limit cut it; `content_filter`: the provider withheld part of it.
            cut_off=f"finish_reason={finish}" if finish in CUT_OFF_REASONS else None,
        )
