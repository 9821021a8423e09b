"""`anthropic:MODEL` — the Anthropic Messages API, images as base64 blocks."""

from __future__ import annotations

import json
from typing import Any

import httpx

from webfovea.models.base import ModelError, ModelInput, ModelReply, Usage
from webfovea.models.conventions import conventions_for
from webfovea.models.endpoint import resolve_api_key, resolve_base_url
from webfovea.models.messages import anthropic_messages
from webfovea.models.retry import RetryPolicy, post_with_retry

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class AnthropicModel:
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
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if not model.strip():
            raise ValueError(
                "anthropic: model name is empty (use anthropic:MODEL, e.g. anthropic:claude-opus-4-6)"
            )
        self.model = model.strip()
        self.label = f"anthropic:{self.model}"
        self.base_url = resolve_base_url(base_url, "ANTHROPIC_BASE_URL", DEFAULT_ANTHROPIC_BASE_URL)
        self._api_key = resolve_api_key(api_key, "ANTHROPIC_API_KEY", self.base_url)
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.retry = retry or RetryPolicy()
        self.extra_body = dict(extra_body or {})
        self.conventions = conventions_for(self.model)
        # Created on first use: building one loads the TLS context (tenths of a second),
        # wasted when a spec is only validated, and it binds to the running loop.
        self._client: httpx.AsyncClient | None = None

    @property
    def endpoint(self) -> str:
        # Users paste both "https://api.anthropic.com" and ".../v1"; accept either.
        if self.base_url.endswith("/v1"):
            return f"{self.base_url}/messages"
        return f"{self.base_url}/v1/messages"

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": inp.system,
            "messages": anthropic_messages(inp),
            "temperature": self.temperature,
        }
        body.update(self.extra_body)
        return body

    def headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json", "anthropic-version": ANTHROPIC_VERSION}
        if self._api_key:
            h["x-api-key"] = self._api_key
        return h

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout_s)
        resp = await post_with_retry(
            self._client,
            self.endpoint,
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
        if data.get("type") == "error" or data.get("error"):
            err = data.get("error")
            msg = err.get("message") if isinstance(err, dict) else err
            raise ModelError(f"{self.label}: the server reported an error: {msg}")
        content = data.get("content")
        if not isinstance(content, list):
            raise ModelError(f"{self.label}: response has no content: {json.dumps(data)[:200]}")
        # Thinking and tool blocks are not part of the reply the harness parses.
        text = "".join(
            str(block.get("text") or "")
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        )
        usage = data.get("usage") or {}
        # Cached input is billed and counted separately; the prompt total is their sum.
        prompt = (
            _as_int(usage.get("input_tokens"))
            + _as_int(usage.get("cache_creation_input_tokens"))
            + _as_int(usage.get("cache_read_input_tokens"))
        )
        return ModelReply(
            text=text,
            usage=Usage(prompt_tokens=prompt, completion_tokens=_as_int(usage.get("output_tokens"))),
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def __repr__(self) -> str:
        return f"AnthropicModel({self.model!r}, base_url={self.base_url!r})"
