"""`gemini:MODEL` — the Gemini API through Google's official SDK (`google-genai`).

Each step is one `generateContent` call through `genai.Client(...).aio.models`: the system
prompt as `system_instruction`, one user turn holding the task, the text history, the
feedback and the last N screenshots as inline PNG parts (the same text and labels every
provider gets, `messages.py`), temperature and the output limit from the client options.

The reply interface comes from the conventions row (`gemini_tools` for Gemini rows) unless
the spec says `interface=text|tools`: tools offers our actions as function declarations (their
JSON Schema as `parametersJsonSchema`); text keeps the UI-TARS grammar.

Reading a reply (`gemini_reply.py`): thought parts are never the answer; several candidates:
the first is used; a finish reason other than STOP (MAX_TOKENS, SAFETY, RECITATION, ...) marks
the reply cut off, so nothing of it runs; a prompt the API blocked (`promptFeedback.blockReason`)
is a ModelError that says so; no candidates is an empty reply.

What stays ours, as for the other SDKs (`sdk_transport.py`): the retry loop (`retry.py`; the
SDK's own retries are off), the 16 MB answer cap (our capped httpx2 client), and the scrub of
every text the request carries (`outbound`). 401/403 and a rejected key are not retried and
name the variable the key comes from.
"""

from __future__ import annotations

import json
import os
from typing import Any

import httpx

from webfovea.models.base import ModelError, ModelInput, ModelReply
from webfovea.models.endpoint import ModelConfigError, describe_status, is_loopback, resolve_base_url
from webfovea.models.gemini_reply import read_reply
from webfovea.models.http_model import HttpModel
from webfovea.models.messages import closing_text, image_label, image_steps, intro_text, png_base64
from webfovea.models.outbound import outbound
from webfovea.models.retry import ConnectionFailed, send_with_retry
from webfovea.models.sdk_transport import http_client

DEFAULT_GEMINI_BASE_URL = "https://generativelanguage.googleapis.com"
DEFAULT_API_VERSION = "v1beta"  # the SDK's own for the Gemini Developer API
KEY_VARIABLES = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
INTERFACES = {"text": "text", "tools": "gemini_tools"}
# Statuses that say the key is missing, wrong or not allowed: repeating the call cannot help.
KEY_STATUSES = (401, 403)


def inline_image(data: str) -> dict[str, Any]:
    """An inline PNG part (base64 text; the SDK's Blob reads it back to bytes)."""
    return {"inline_data": {"mime_type": "image/png", "data": data}}


def gemini_parts(inp: ModelInput) -> list[dict[str, Any]]:
    """The user turn's parts: the text every provider gets, then the images, the request last."""
    parts: list[dict[str, Any]] = [{"text": intro_text(inp)}]
    for a in inp.attachments:  # before the screenshots, so the last image is still the current view
        parts += [{"text": a.label}, inline_image(png_base64(a.image))]
    steps = image_steps(inp)
    for i, (image, step) in enumerate(zip(inp.images, steps, strict=True)):
        parts += [{"text": image_label(step, i == len(steps) - 1)}, inline_image(png_base64(image))]
    parts.append({"text": closing_text(inp)})
    return parts


def api_key_of(arg: str | None) -> tuple[str | None, str]:
    """The key and the variable it came from: the argument, GEMINI_API_KEY, then GOOGLE_API_KEY."""
    if arg is not None:
        return arg, KEY_VARIABLES[0]
    for name in KEY_VARIABLES:
        if os.environ.get(name, "").strip():
            return os.environ[name], name
    return None, KEY_VARIABLES[0]


def split_version(url: str) -> tuple[str, str]:
    """`https://host/v1beta` -> (`https://host`, `v1beta`): users paste either form."""
    root, _, last = url.rstrip("/").rpartition("/")
    if root.count("/") >= 2 and last in ("v1", "v1beta", "v1alpha"):
        return root, last
    return url.rstrip("/"), DEFAULT_API_VERSION


class GeminiModel(HttpModel):
    provider = "gemini"
    base_url_env = "GOOGLE_GEMINI_BASE_URL"  # the variable the SDK itself reads
    api_key_env = KEY_VARIABLES[0]
    default_base_url = DEFAULT_GEMINI_BASE_URL
    example_model = "gemini-2.5-flash"

    def __init__(
        self,
        model: str,
        *,
        interface: str | None = None,
        thinking: int | None = None,
        api_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs.get("client") is not None:
            raise ModelConfigError(
                "gemini: client= is not supported; give base_url= and the key (GEMINI_API_KEY)"
            )
        try:
            import google.genai  # noqa: F401 -- an optional extra: say so before anything runs
        except ImportError:
            raise ModelConfigError(
                "gemini: needs Google's SDK: pip install 'webfovea[gemini]' (google-genai)"
            ) from None
        key, self.key_variable = api_key_of(api_key)
        self.api_key_env = self.key_variable
        url = resolve_base_url(kwargs.get("base_url"), self.base_url_env, self.default_base_url)
        if not (key or "").strip() and not is_loopback(url):
            raise ModelConfigError(
                f"no API key for {url}: set the GEMINI_API_KEY (or GOOGLE_API_KEY) environment "
                "variable (from Python, pass api_key=); a key is optional only for a server on this machine"
            )
        super().__init__(model, api_key=key, **kwargs)
        self.root_url, self.api_version = split_version(self.base_url)
        row = self.conventions
        if interface is None:
            self.interface = "gemini_tools" if row.reply_interface == "gemini_tools" else "text"
        elif interface in INTERFACES:
            self.interface = INTERFACES[interface]
        else:
            raise ModelConfigError(
                f"{self.label}: unknown interface {interface!r}; use one of: {', '.join(INTERFACES)}"
            )
        if thinking is not None and (isinstance(thinking, bool) or not isinstance(thinking, int)):
            raise ModelConfigError(f"{self.label}: thinking={thinking!r}: give a token budget (0: off)")
        self.thinking = thinking
        self._http: Any = None  # our capped HTTP client, made with the SDK client

    @property
    def endpoint(self) -> str:
        return f"{self.root_url}/{self.api_version}/models/{self.model}:generateContent"

    def new_sdk_client(self) -> Any:
        """`genai.Client` on our base URL: our capped HTTP client, no retries of its own (one
        attempt), no key header at all for a loopback server that needs none."""
        from google import genai
        from google.genai import types

        headers = {"x-goog-api-key": ""} if self.keyless else None
        self._http = http_client(self.timeout_s)  # the SDK leaves a client it was given open
        options = types.HttpOptions(
            base_url=self.root_url,
            api_version=self.api_version,
            timeout=int(self.timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
            httpx_async_client=self._http,
            headers=headers,
        )
        return genai.Client(api_key=self._api_key or "none", http_options=options)

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        """What goes to `generate_content`: contents and config, in the SDK's field names."""
        tools = self.interface == "gemini_tools" and bool(inp.tools)
        config: dict[str, Any] = {
            "system_instruction": inp.system_tools if tools and inp.system_tools else inp.system,
            "max_output_tokens": self.output_budget(),
        }
        if self.conventions.send_temperature:
            config["temperature"] = self.temperature
        if tools:
            declarations = [
                {"name": t.name, "description": t.description, "parameters_json_schema": t.parameters}
                for t in inp.tools
            ]
            config["tools"] = [{"function_declarations": declarations}]
            config["automatic_function_calling"] = {"disable": True}  # we execute the calls
        if self.thinking is not None:
            config["thinking_config"] = {"thinking_budget": self.thinking}
        config.update(self.extra_body)
        return {"contents": [{"role": "user", "parts": gemini_parts(inp)}], "config": config}

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        response = await self.generate(self.request_body(inp))
        return self.made_room(read_reply(response, self.label))

    async def generate(self, body: dict[str, Any]) -> Any:
        """One `generateContent` through the SDK, retried within the policy (models/retry.py);
        the SDK's `GenerateContentResponse`."""
        import httpx2
        from google.genai import errors

        if self._client is None:
            self._client = self.new_sdk_client()
        client = self._client
        from google.genai import types

        sent = outbound(body)  # every model call's scrub of the known secrets
        # The SDK's own types, so it writes the API's field names throughout (a dict it is
        # handed keeps nested snake_case keys as given).
        contents = [types.Content.model_validate(c) for c in sent["contents"]]
        got: list[Any] = []

        async def send(attempt_s: float) -> httpx.Response:
            timeout = {"timeout": max(1, int(attempt_s * 1000))}
            config = types.GenerateContentConfig.model_validate({**sent["config"], "http_options": timeout})
            try:
                got.append(
                    await client.aio.models.generate_content(
                        model=self.model, contents=contents, config=config
                    )
                )
            except errors.APIError as exc:
                return self.failed(exc)
            except httpx2.TimeoutException:
                raise TimeoutError(f"no answer within {attempt_s:.1f} s") from None
            except httpx2.TransportError as exc:
                raise ConnectionFailed(f"{type(exc).__name__}: {exc}") from None
            except (ValueError, TypeError, AttributeError) as exc:
                raise ModelError(
                    f"{self.label}: the server's answer is not a GenerateContentResponse: {str(exc)[:300]}"
                ) from None
            return httpx.Response(200)

        await send_with_retry(send, policy=self.retry, timeout_s=self.timeout_s, label=self.label)
        return got[-1]

    def failed(self, exc: Any) -> httpx.Response:
        """The SDK's APIError as the answer the retry loop reads; a key problem ends it here."""
        raw = getattr(exc, "response", None)
        headers = dict(getattr(raw, "headers", None) or {})
        headers = {
            k: v for k, v in headers.items() if k.lower() not in ("content-length", "content-encoding")
        }
        details = exc.details if isinstance(exc.details, dict) else {"error": {"message": str(exc.details)}}
        resp = httpx.Response(
            int(exc.code or 500),
            headers=headers,
            content=json.dumps(details).encode(),
            request=httpx.Request("POST", self.endpoint),
        )
        if resp.status_code in KEY_STATUSES or (resp.status_code == 400 and "API_KEY" in json.dumps(details)):
            raise ModelError(
                f"{self.label}: {describe_status(resp)} (not retried): check the API key in "
                f"{self.key_variable} (or {' / '.join(v for v in KEY_VARIABLES if v != self.key_variable)})"
            )
        return resp

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aio.aclose()
            self._client.close()  # the sync HTTP client the SDK built beside ours
            if self._http is not None:
                await self._http.aclose()
            self._client = None
