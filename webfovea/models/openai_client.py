"""`openai:MODEL` — an OpenAI-compatible Chat Completions client with inline images.

Works against api.openai.com and the many servers that speak the same protocol
(vLLM, SGLang, Ollama, LiteLLM, OpenRouter, the challenge's gateway).
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from webfovea.models.base import ModelError, ModelInput, ModelReply, Usage
from webfovea.models.conventions import conventions_for
from webfovea.models.endpoint import resolve_api_key, resolve_base_url
from webfovea.models.messages import openai_messages
from webfovea.models.retry import RetryPolicy, post_with_retry

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


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


class OpenAIModel:
    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        retry: RetryPolicy | None = None,
        image_detail: str | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if not model.strip():
            raise ValueError("openai: model name is empty (use openai:MODEL, e.g. openai:gpt-4o)")
        self.model = model.strip()
        self.label = f"openai:{self.model}"
        self.base_url = resolve_base_url(base_url, "OPENAI_BASE_URL", DEFAULT_OPENAI_BASE_URL)
        self._api_key = resolve_api_key(api_key, "OPENAI_API_KEY", self.base_url)
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.retry = retry or RetryPolicy()
        self.image_detail = image_detail
        self.extra_body = dict(extra_body or {})
        self.conventions = conventions_for(self.model)
        # Created on first use: building one loads the TLS context (tenths of a second),
        # wasted when a spec is only validated, and it binds to the running loop.
        self._client: httpx.AsyncClient | None = None

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": openai_messages(inp, image_detail=self.image_detail),
            self.conventions.max_tokens_field: self.max_tokens,
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

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout_s)
        resp = await post_with_retry(
            self._client,
            f"{self.base_url}/chat/completions",
            json_body=self.request_body(inp),
            headers=self.headers(),
            policy=self.retry,
            timeout_s=self.timeout_s,
            label=self.label,
        )
        return self.parse_response(resp)

    def parse_response(self, resp: httpx.Response) -> ModelReply:
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            raise ModelError(
                f"{self.label}: the server answered HTTP {resp.status_code} with a body that is not JSON: "
                f"{resp.text[:200]!r}"
            ) from None
        if not isinstance(data, dict):
            raise ModelError(f"{self.label}: unexpected response (not a JSON object): {str(data)[:200]}")
        if data.get("error"):
            err = data["error"]
            msg = err.get("message") if isinstance(err, dict) else err
            raise ModelError(f"{self.label}: the server reported an error: {msg}")
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ModelError(f"{self.label}: response has no choices: {json.dumps(data)[:200]}")
        message = choices[0].get("message") or {}
        text = reply_text(message if isinstance(message, dict) else {})
        usage = data.get("usage") or {}
        return ModelReply(
            text=text,
            usage=Usage(
                prompt_tokens=_as_int(usage.get("prompt_tokens")),
                completion_tokens=_as_int(usage.get("completion_tokens")),
            ),
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def __repr__(self) -> str:
        return f"OpenAIModel({self.model!r}, base_url={self.base_url!r})"
