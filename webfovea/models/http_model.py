"""What the HTTP model clients share: settings, the retried POST, JSON decoding, closing.

A provider subclass says which official SDK client carries its calls (`new_sdk_client`,
models/sdk_transport.py) and on which path, with which headers beyond the SDK's own, what
body, and how to read the reply out of the decoded JSON (`read_reply`). A user's own SDK
client object (`client=`: Azure, Bedrock, a proxy) is used as given, its retries turned off
for ours. `endpoint` and `headers()` describe the same call for plain httpx (the judge).
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from webfovea.models.base import ModelError, ModelInput, ModelReply
from webfovea.models.conventions import conventions_for
from webfovea.models.endpoint import resolve_api_key, resolve_base_url
from webfovea.models.retry import RetryPolicy, send_with_retry
from webfovea.models.sdk_transport import SdkErrors, sdk_post

# After a cut-off reply the next call gets twice the output budget, up to this many times
# `max_tokens` (a model asked for a long `fill` needs the room; the bound keeps the bill finite).
MAX_ROOM = 4


def as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class HttpModel:
    provider = ""  # spec prefix, e.g. "openai"
    base_url_env = ""
    api_key_env = ""
    default_base_url = ""
    example_model = ""

    def __init__(  # noqa: PLR0913 -- the public constructor: one keyword per client option
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
        client: Any = None,
    ) -> None:
        if not model.strip():
            raise ValueError(
                f"{self.provider}: model name is empty (use {self.provider}:MODEL, e.g. "
                f"{self.provider}:{self.example_model})"
            )
        self.model = model.strip()
        self.label = f"{self.provider}:{self.model}"
        if client is not None:  # the user's own SDK client: its URL and credentials are its own
            self.base_url = str(client.base_url).rstrip("/")
            self._api_key = api_key
        else:
            self.base_url = resolve_base_url(base_url, self.base_url_env, self.default_base_url)
            self._api_key = resolve_api_key(api_key, self.api_key_env, self.base_url)
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.retry = retry or RetryPolicy()
        self.extra_body = dict(extra_body or {})
        self.conventions = conventions_for(self.model)
        self._room = 1  # multiplier of max_tokens for the next call (output_budget)
        # Created on first use: building one loads the TLS context (tenths of a second),
        # wasted when a spec is only validated, and it binds to the running loop.
        self._own_client = client is None
        self._client: Any = client.with_options(max_retries=0) if client is not None else None

    # provider specifics ------------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        raise NotImplementedError

    def headers(self) -> dict[str, str]:
        raise NotImplementedError

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        raise NotImplementedError

    sdk_path = ""  # the path the SDK client posts to, below its base URL

    def new_sdk_client(self) -> Any:
        """The SDK client this model builds for itself (no retries of its own, capped answers)."""
        raise NotImplementedError

    def sdk_errors(self) -> SdkErrors:
        raise NotImplementedError

    def sdk_headers(self) -> dict[str, Any]:
        """Headers beyond the SDK's own (which carry the credentials)."""
        return {}

    @property
    def keyless(self) -> bool:
        """Our own SDK client with no key (a loopback server): no credential header is sent."""
        return self._own_client and not self._api_key

    def read_reply(self, data: dict[str, Any]) -> ModelReply:
        raise NotImplementedError

    # shared ---------------------------------------------------------------------------------
    def output_budget(self) -> int:
        """The output-token limit of the next call: `max_tokens`, more after a cut-off reply."""
        return self.max_tokens * self._room

    def made_room(self, reply: ModelReply) -> ModelReply:
        """Give the next call more room after a reply the limit cut off; back to normal after one
        that ended by itself."""
        self._room = min(MAX_ROOM, self._room * 2) if reply.cut_off else 1
        return reply

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        return self.made_room(self.parse_response(await self.post(self.request_body(inp))))

    async def post(self, body: dict[str, Any]) -> httpx.Response:
        """One call through the SDK client, retried within the policy (models/retry.py)."""
        if self._client is None:
            self._client = self.new_sdk_client()
        client, headers, errors = self._client, self.sdk_headers(), self.sdk_errors()

        async def send(attempt_s: float) -> httpx.Response:
            return await sdk_post(client, self.sdk_path, body, headers, attempt_s, errors)

        return await send_with_retry(send, policy=self.retry, timeout_s=self.timeout_s, label=self.label)

    def parse_response(self, resp: httpx.Response) -> ModelReply:
        return self.read_reply(self.decode(resp))

    def decode(self, resp: httpx.Response) -> dict[str, Any]:
        """The answer's JSON object; ModelError for a body that is not one, or an error body."""
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
            raise ModelError(
                f"{self.label}: the server answered HTTP {resp.status_code} with a body that is not JSON: "
                f"{resp.text[:200]!r}"
            ) from None
        except RecursionError:  # a 50,000-deep body: not a reply, and not worth a traceback
            raise ModelError(f"{self.label}: the server's answer is nested too deeply to read") from None
        if not isinstance(data, dict):
            raise ModelError(f"{self.label}: unexpected response (not a JSON object): {str(data)[:200]}")
        if data.get("type") == "error" or data.get("error"):
            err = data.get("error")
            msg = err.get("message") if isinstance(err, dict) else err
            raise ModelError(f"{self.label}: the server reported an error: {msg}")
        return data

    async def aclose(self) -> None:
        if self._client is not None and self._own_client:
            await self._client.close()
            self._client = None

    def quirks(self) -> list[dict[str, Any]]:
        """A real model plays no quirks on purpose (the Model protocol's declared hook)."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model!r}, base_url={self.base_url!r})"
