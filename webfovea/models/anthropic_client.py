"""`anthropic:MODEL` — the Anthropic Messages API, images as base64 blocks."""

from __future__ import annotations

import json
from typing import Any

from webfovea.models.base import ModelError, ModelInput, ModelReply, Usage
from webfovea.models.http_model import HttpModel, as_int
from webfovea.models.messages import anthropic_messages

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"


class AnthropicModel(HttpModel):
    provider = "anthropic"
    base_url_env = "ANTHROPIC_BASE_URL"
    api_key_env = "ANTHROPIC_API_KEY"
    default_base_url = DEFAULT_ANTHROPIC_BASE_URL
    example_model = "claude-opus-4-6"

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

    def read_reply(self, data: dict[str, Any]) -> ModelReply:
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
            as_int(usage.get("input_tokens"))
            + as_int(usage.get("cache_creation_input_tokens"))
            + as_int(usage.get("cache_read_input_tokens"))
        )
        return ModelReply(
            text=text,
            usage=Usage(prompt_tokens=prompt, completion_tokens=as_int(usage.get("output_tokens"))),
        )
