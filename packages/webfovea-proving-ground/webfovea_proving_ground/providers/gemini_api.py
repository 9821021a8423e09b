"""A loopback Gemini API that answers with the oracle: `--model oracle --via gemini`.

The harness talks to it through the real `GeminiModel` client, i.e. Google's `google-genai`
SDK: its request conversion, HTTP, and its parsing of the response into the SDK's
`GenerateContentResponse`, then our reading of that. The server takes
`POST /v1beta/models/{model}:generateContent`, answers a request without a key the way the API
does (403 PERMISSION_DENIED), checks the body against the SDK's own types
(`gemini_replies.gemini_request_errors`: a 400 INVALID_ARGUMENT for what the API rejects),
rebuilds what a model would see from the request alone (system instruction, function
declarations, the prompt text, the inline images) and asks the oracle. Its reply is a text part,
or, when functions were declared, the thought as a text part and the decision as a
`functionCall` part; replies are built from the SDK's types (`gemini_replies.py`).

`via_shape` picks how a decision comes back: `thought` (default), `call_only`, `thinking` (the
thought as a `thought: true` part, never to be read as the answer), `candidates` (two
candidates: the decision first, a decoy `finished` second), `cut_once` (the first decision cut
off at MAX_TOKENS, half its arguments, answered whole next time), `safety_once` (the first turn
withheld, finishReason SAFETY, no content).

Tokens are billed by Google's published rules: text ceil(characters / 4) (no public tokenizer);
an image with both sides at most 384 px is 258 tokens, a larger one 258 per 768x768 tile;
implicit caching of a shared prefix from 1,024 tokens (`openai_api.AutoCache`'s rule), reported
as `cachedContentTokenCount`. The oracle stays an instrument: it sees only the request.
"""

from __future__ import annotations

import base64
import io
import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from PIL import Image

from webfovea.models.base import Model, ModelError, ModelInput
from webfovea.models.conventions import ModelConventions
from webfovea.parsing import parse_reply
from webfovea_proving_ground.providers.anthropic_api import actions_section, tool_params
from webfovea_proving_ground.providers.gemini_replies import (
    candidate,
    function_call_part,
    gemini_error,
    gemini_request_errors,
    gemini_response,
    text_part,
    thought_part,
)
from webfovea_proving_ground.providers.openai_api import AutoCache
from webfovea_proving_ground.providers.prompt_reader import read_prompt

SHAPES = ("thought", "call_only", "thinking", "candidates", "cut_once", "safety_once")
_STATUS = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 500: "INTERNAL"}


def _error(code: int, message: str) -> JSONResponse:
    return JSONResponse(gemini_error(code, message, _STATUS.get(code, "UNKNOWN")), status_code=code)


def image_tokens(size: tuple[int, int]) -> int:
    w, h = size
    if w <= 384 and h <= 384:
        return 258
    return 258 * math.ceil(w / 768) * math.ceil(h / 768)


def declared_params(body: dict[str, Any]) -> dict[str, Any]:
    """The declared functions as the parameter lists the oracle's text reply is bound against."""
    declarations = [d for tool in body.get("tools") or [] for d in tool.get("functionDeclarations") or []]
    return tool_params(
        [
            {
                "name": d["name"],
                "input_schema": d.get("parametersJsonSchema") or d.get("parameters_json_schema") or {},
            }
            for d in declarations
        ]
    )


def read_request(body: dict[str, Any]) -> tuple[ModelInput, list[tuple[str, Any, int]]]:
    """What a model sees in the request, and the request as billing units in prefix order."""
    units: list[tuple[str, Any, int]] = []
    system = "\n\n".join(
        str(p.get("text") or "") for p in (body.get("systemInstruction") or {}).get("parts", [])
    )
    params = declared_params(body)
    if params:
        system += "\n\n" + actions_section(params)
    units.append(("text", system, math.ceil(len(system) / 4)))
    texts: list[str] = []
    images: list[Image.Image] = []
    for content in body["contents"]:
        for part in content.get("parts") or []:
            if "text" in part:
                texts.append(str(part["text"]))
                units.append(("text", part["text"], math.ceil(len(part["text"]) / 4)))
            elif "inlineData" in part:
                # The API takes both base64 alphabets; the SDK sends the URL-safe one.
                raw = base64.urlsafe_b64decode(
                    str(part["inlineData"]["data"]).replace("+", "-").replace("/", "_")
                )
                im = Image.open(io.BytesIO(raw))
                im.load()
                images.append(im)
                units.append(("image", part["inlineData"]["data"][-64:], image_tokens(im.size)))
    got = read_prompt(texts[0] if texts else "", texts[-1] if len(texts) > 1 else "")
    inp = ModelInput(
        system=system,
        task=got.task,
        history=got.history,
        images=images[-1:],
        feedback=got.feedback,
        step=got.history_start - 1 + len(got.history),
        summary=got.summary,
        history_start=got.history_start,
        purpose=got.purpose,
        closing=got.closing,
        snapshot=got.snapshot,
    )
    return inp, units


def decision_parts(text: str, params: dict[str, Any], call_id: str) -> tuple[str, dict[str, Any] | None]:
    """The oracle's text reply as (thought, function call part); no call when none was declared
    or the reply binds to none of them."""
    if not params:
        return text, None
    parsed = parse_reply(text, params, strip_tokens=False, first_only=True, forbidden={}, aliases={})
    if parsed.action is None:
        return text, None
    args = {
        k: ([list(p) for p in v] if isinstance(v, list) else list(v) if isinstance(v, tuple) else v)
        for k, v in parsed.action.args.items()
    }
    return parsed.thought or "", function_call_part(parsed.action.name, args, call_id)


class GeminiShaper:
    """How a decision comes back (`via_shape`); a held decision is answered again next request."""

    def __init__(self, shape: str) -> None:
        if shape not in SHAPES:
            raise ValueError(f"via_shape={shape!r}: use one of {', '.join(SHAPES)}")
        self.shape = shape
        self.held: str | None = None
        self.once_done = False

    def candidates(self, thought: str, call: dict[str, Any] | None, text: str) -> list[dict[str, Any]]:
        once = self.shape in ("cut_once", "safety_once") and not self.once_done
        if once:
            self.once_done, self.held = True, text
            if self.shape == "safety_once":
                return [candidate(finish_reason="SAFETY")]
            if call is not None:
                fc = call["functionCall"]
                half = {**call, "functionCall": {**fc, "args": dict(list(fc["args"].items())[:1])}}
                return [candidate(text_part(thought), half, finish_reason="MAX_TOKENS")]
            return [candidate(text_part(text[: max(1, len(text) // 2)]), finish_reason="MAX_TOKENS")]
        if call is None:
            return [candidate(text_part(text))]
        if self.shape == "call_only":
            return [candidate(call)]
        if self.shape == "thinking":
            return [candidate(thought_part(thought or "thinking"), call)]
        parts = [text_part(thought), call] if thought else [call]
        if self.shape == "candidates":
            decoy = function_call_part("finished", {"content": "decoy: never the answer"}, "decoy")
            return [candidate(*parts), candidate(decoy, index=1)]
        return [candidate(*parts)]


def make_app(
    oracle: Model, row: ModelConventions, shape: str = "thought", cache: AutoCache | None = None
) -> FastAPI:
    """The Gemini API in front of `oracle`; `cache` the key's implicit prefix cache."""
    app = FastAPI(title="webfovea loopback Gemini API (oracle)")
    cache = cache if cache is not None else AutoCache()
    shaper = GeminiShaper(shape)
    calls = iter(range(1, 1 << 30))
    app.state.requests = []  # bodies as received, for tests
    app.state.headers = []

    @app.post("/{version}/models/{target}")
    async def generate(version: str, target: str, request: Request) -> JSONResponse:
        model, _, method = target.partition(":")
        if method != "generateContent" or version not in ("v1", "v1beta"):
            return _error(404, f"/{version}/models/{target}: this server serves v1beta generateContent")
        if not request.headers.get("x-goog-api-key"):
            return _error(403, "Method doesn't allow unregistered callers. Please use an API Key.")
        body = await request.json()
        app.state.requests.append(body)
        app.state.headers.append(dict(request.headers))
        invalid = gemini_request_errors(body)
        if invalid is not None:
            return _error(400, invalid)
        inp, units = read_request(body)
        prompt, cached = cache.bill(units)
        if shaper.held is not None:  # a decision already made, answered again
            text, shaper.held = shaper.held, None
        else:
            try:
                text = (await oracle.next_reply(inp)).text
            except ModelError as e:  # the oracle cannot go on: an API error the client reports
                return _error(500, str(e))
        thought, call = decision_parts(text, declared_params(body), f"call-{next(calls):04d}")
        thinking = math.ceil(len(thought) / 4) if shaper.shape == "thinking" else None
        return JSONResponse(
            gemini_response(
                *shaper.candidates(thought, call, text),
                model=model,
                prompt_tokens=prompt,
                output_tokens=math.ceil(len(text) / 4),
                cached_tokens=cached or None,
                thoughts_tokens=thinking,
            )
        )

    return app
