"""A loopback Chat Completions API that answers with the oracle: `--model oracle --via openai`.

The harness talks to it through the real `OpenAIModel` client (request body, headers, HTTP,
reply and usage parsing), the path every OpenAI-compatible endpoint takes. The server checks
what the real API would reject (a missing key or model, unknown roles, images that are not
data URLs, the wrong max-tokens field for the model's row), rebuilds what a model would see
from the request alone (webfovea_proving_ground/providers/prompt_reader.py) and asks the oracle. Tokens are billed by
OpenAI's published rules, automatic prefix caching included:

- text: no public tokenizer for every model, so ceil(characters / 4);
- images (detail high or auto): fit 2048x2048, then the short side to 768 px, 170 tokens a
  512-px tile plus 85; detail low: 85;
- caching: automatic for prompts of at least 1,024 tokens; a request reads the longest
  prefix it shares with an earlier one, in steps of 128 tokens from 1,024 on, reported as
  `usage.prompt_tokens_details.cached_tokens`. Nothing is written separately (no charge).
The oracle stays an instrument: it sees only the request.
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
from collections import deque
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from PIL import Image

from webfovea.models.base import Model, ModelError, ModelInput
from webfovea.models.conventions import ModelConventions
from webfovea_proving_ground.providers.prompt_reader import read_prompt
from webfovea_proving_ground.providers.sdk_replies import chat_completion, openai_error
from webfovea_proving_ground.providers.sdk_requests import request_errors

CACHE_MIN_TOKENS = 1024
CACHE_STEP_TOKENS = 128
_ROLES = {"system", "developer", "user", "assistant", "tool"}


class Rejected(ValueError):
    """What the API answers with HTTP 400."""


def _error(status: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    return JSONResponse(openai_error(message, kind), status_code=status)


def _image(part: dict[str, Any]) -> tuple[Image.Image, str]:
    url = (part.get("image_url") or {}).get("url", "")
    head, _, data = url.partition(",")
    if not head.startswith("data:image/") or ";base64" not in head:
        raise Rejected("image_url.url: this server takes base64 data URLs only (as the harness sends)")
    raw = base64.b64decode(data)
    im = Image.open(io.BytesIO(raw))
    im.load()
    return im, hashlib.sha256(raw).hexdigest()


def image_tokens(size: tuple[int, int], detail: str | None, row: ModelConventions) -> int:
    if detail == "low":
        return 85
    w, h = row.provider_size(*size)
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def _units(body: dict[str, Any], row: ModelConventions) -> tuple[list[tuple[str, Any, int]], dict[str, Any]]:
    """The request in prefix order as (kind, value, tokens) units, and what the model sees."""
    units: list[tuple[str, Any, int]] = []
    seen: dict[str, Any] = {"system": [], "texts": [], "images": []}
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Rejected("messages: a non-empty array is required")
    for i, msg in enumerate(messages):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role not in _ROLES:
            raise Rejected(f"messages[{i}].role: {role!r} is not one of {sorted(_ROLES)}")
        content = msg.get("content")
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for part in parts:
            if part.get("type") == "text":
                text = str(part.get("text") or "")
                units.append(("text", text, math.ceil(len(text) / 4)))
                (seen["system"] if role in ("system", "developer") else seen["texts"]).append(text)
            elif part.get("type") == "image_url":
                if role != "user":
                    raise Rejected(f"messages[{i}]: images are only allowed in user messages")
                im, digest = _image(part)
                detail = (part.get("image_url") or {}).get("detail")
                units.append(("image", digest, image_tokens(im.size, detail, row)))
                seen["images"].append(im)
            else:
                raise Rejected(f"messages[{i}].content: unknown part type {part.get('type')!r}")
    return units, seen


def _shared_tokens(a: list[tuple[str, Any, int]], b: list[tuple[str, Any, int]]) -> int:
    shared = 0
    for (ka, va, ta), (kb, vb, _) in zip(a, b, strict=False):
        if (ka, va) == (kb, vb):
            shared += ta
            continue
        if ka == kb == "text":  # the prefix may end inside a text part
            n = 0
            for x, y in zip(va, vb, strict=False):
                if x != y:
                    break
                n += 1
            shared += n // 4
        break
    return shared


class AutoCache:
    """One account's automatic prefix cache: the units of recent requests."""

    def __init__(self, keep: int = 64) -> None:
        self.recent: deque[list[tuple[str, Any, int]]] = deque(maxlen=keep)

    def bill(self, units: list[tuple[str, Any, int]]) -> tuple[int, int]:
        total = sum(t for _, _, t in units)
        best = max((_shared_tokens(units, old) for old in self.recent), default=0)
        self.recent.append(units)
        if total < CACHE_MIN_TOKENS or best < CACHE_MIN_TOKENS:
            return total, 0
        return total, CACHE_MIN_TOKENS + (best - CACHE_MIN_TOKENS) // CACHE_STEP_TOKENS * CACHE_STEP_TOKENS


def model_input_of(seen: dict[str, Any]) -> ModelInput:
    texts = seen["texts"]
    got = read_prompt(texts[0] if texts else "", texts[-1] if len(texts) > 1 else "")
    return ModelInput(
        system="\n\n".join(seen["system"]),
        task=got.task,
        history=got.history,
        images=seen["images"][-1:],
        feedback=got.feedback,
        step=got.history_start - 1 + len(got.history),
        summary=got.summary,
        history_start=got.history_start,
        purpose=got.purpose,
        closing=got.closing,
        snapshot=got.snapshot,
    )


def make_app(oracle: Model, row: ModelConventions, cache: AutoCache | None = None) -> FastAPI:
    """Chat Completions in front of `oracle`; `cache` the account's automatic prefix cache
    (default: one of this app's own, as a server that lives for the whole run has)."""
    app = FastAPI(title="webfovea loopback Chat Completions API (oracle)")
    cache = cache if cache is not None else AutoCache()
    app.state.requests = []  # bodies as received, for tests

    @app.post("/v1/chat/completions")
    async def completions(request: Request) -> JSONResponse:
        if not request.headers.get("authorization", "").startswith("Bearer "):
            return _error(401, "You didn't provide an API key.", "invalid_api_key")
        body = await request.json()
        app.state.requests.append(body)
        invalid = request_errors("chat", body)
        if invalid is not None:
            return _error(400, invalid)
        try:
            if not body.get("model"):
                raise Rejected("model: a model name is required")
            wrong = {"max_tokens", "max_completion_tokens"} - {row.max_tokens_field}
            if wrong & set(body):
                raise Rejected(
                    f"Unsupported parameter: {sorted(wrong & set(body))[0]!r} is not supported with "
                    f"this model. Use {row.max_tokens_field!r} instead."
                )
            units, seen = _units(body, row)
        except Rejected as e:
            return _error(400, str(e))
        prompt, cached = cache.bill(units)
        try:
            reply = await oracle.next_reply(model_input_of(seen))
        except ModelError as e:  # the oracle cannot go on: an API error the client reports
            return _error(500, str(e), "server_error")
        completion = math.ceil(len(reply.text) / 4)
        return JSONResponse(
            chat_completion(
                reply.text,
                model=str(body["model"]),
                prompt_tokens=prompt,
                completion_tokens=completion,
                cached_tokens=cached,
            )
        )

    return app
