"""A loopback Messages API that answers with the oracle: `--model oracle --via anthropic`.

The harness talks to it through the real `AnthropicModel` client: its request builder
(tools, system, append-only transcript, cache breakpoints), HTTP, and its response and
usage parsers. The server checks what the real API would reject (roles, the pairing of
every tool_use with one tool_result, at most four breakpoints, the computer tool's beta
header), rebuilds what a model would see from the request alone (system prompt, tools,
images, the text of earlier turns) and asks the oracle; its text reply becomes a text
block or, when tools were offered, a tool_use. Tokens are billed by the provider's rules
(`webfovea_proving_ground/providers/tokens.py`). The oracle stays an instrument: it sees only the request.
"""

from __future__ import annotations

import base64
import io
import itertools
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from PIL import Image

from webfovea.models.anthropic_client import ANTHROPIC_VERSION
from webfovea.models.base import Model, ModelError, ModelInput
from webfovea.models.conventions import ModelConventions
from webfovea.parsing import parse_reply
from webfovea.types import ParamSpec
from webfovea_proving_ground.providers.prompt_reader import read_prompt
from webfovea_proving_ground.providers.sdk_replies import (
    anthropic_error,
    anthropic_message,
    text_block,
    tool_use_block,
)
from webfovea_proving_ground.providers.sdk_requests import request_errors
from webfovea_proving_ground.providers.shapes import Shaper
from webfovea_proving_ground.providers.tokens import PromptCache, RequestRejected, text_tokens

_TASK_HEAD = "## Task\n"


def _error(status: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    return JSONResponse(anthropic_error(message, kind), status_code=status)


def _param_kind(schema: dict[str, Any]) -> str:
    if schema.get("type") == "array":
        items = schema.get("items") or {}
        if items.get("type") == "array":
            return "points"
        return "box" if schema.get("minItems") == 4 else "point"
    if schema.get("enum") and set(schema["enum"]) <= {"up", "down", "left", "right"}:
        return "direction"
    return "text"  # key/answer/text: the harness converts by the real kind


def tool_params(tools: list[dict[str, Any]]) -> dict[str, list[ParamSpec]]:
    """Tool definitions -> the parameter lists the oracle's text reply is bound against."""
    out: dict[str, list[ParamSpec]] = {}
    for tool in tools:
        schema = tool.get("input_schema") or {}
        required = set(schema.get("required") or [])
        out[tool["name"]] = [
            ParamSpec(name, _param_kind(s), optional=name not in required)
            for name, s in (schema.get("properties") or {}).items()
        ]
    return out


def actions_section(params: dict[str, list[ParamSpec]]) -> str:
    """What the tools offer, written as the prompt's action list the oracle reads."""
    lines = [f"- {name}({', '.join(f'{p.name}=...' for p in ps)})" for name, ps in params.items()]
    return "## Actions\n" + "\n".join(lines)


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [
        str(b.get("text") or "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"
    ]


def model_input_of(body: dict[str, Any]) -> ModelInput:
    """What a model sees in a request, as the oracle takes it."""
    system = "\n\n".join(_texts(body.get("system")))
    params = tool_params([t for t in body.get("tools") or [] if "input_schema" in t])
    if params:
        system += "\n\n" + actions_section(params)
    messages = body["messages"]
    task, images, history, feedback = "", [], [], None
    for msg in messages:
        content = (
            msg["content"] if isinstance(msg["content"], list) else [{"type": "text", "text": msg["content"]}]
        )
        if msg["role"] == "assistant":
            history.append("\n".join(_texts(content)))
            continue
        feedback = None
        for block in content:
            kind = block.get("type")
            if kind == "text" and block["text"].startswith(_TASK_HEAD) and not task:
                task = block["text"][len(_TASK_HEAD) :].split("\n## ", 1)[0].strip()
            elif kind == "image":
                im = Image.open(io.BytesIO(base64.b64decode(block["source"]["data"])))
                images.append(im)
            elif kind == "tool_result" and feedback is None:
                # A result is a string, or blocks (zoom: its note and the magnified crop).
                result = block.get("content") or ""
                feedback = "\n".join(_texts(result)) if isinstance(result, list) else str(result)
    # The text grammar carries the feedback, snapshot and summary inside the prompt text
    # (tool use carries the feedback in a tool_result instead).
    intro, closing = _last_intro(messages)
    got = read_prompt(intro, closing)
    return ModelInput(
        system=system,
        task=task or got.task,
        history=history,
        images=images[-1:],
        feedback=feedback if feedback is not None else got.feedback,
        step=len(history),
        summary=got.summary,
        purpose=got.purpose,
        closing=got.closing,
        snapshot=got.snapshot,
    )


def _last_intro(messages: list[dict[str, Any]]) -> tuple[str, str]:
    for msg in reversed(messages):
        if msg["role"] != "user":
            continue
        texts = _texts(msg["content"])
        for i, text in enumerate(texts):
            if text.startswith(_TASK_HEAD):
                return text, texts[-1] if i < len(texts) - 1 else ""
    return "", ""


def check_request(body: dict[str, Any], headers: dict[str, str], row: ModelConventions) -> None:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages or messages[0].get("role") != "user":
        raise RequestRejected("messages: the first message must use the user role")
    for a, b in itertools.pairwise(messages):
        if a.get("role") == b.get("role"):
            raise RequestRejected("messages: roles must alternate between user and assistant")
    for i, msg in enumerate(messages):
        ids = [
            b["id"]
            for b in msg["content"]
            if isinstance(msg["content"], list) and b.get("type") == "tool_use"
        ]
        if not ids:
            continue
        nxt = messages[i + 1]["content"] if i + 1 < len(messages) else []
        results = [
            b.get("tool_use_id") for b in nxt if isinstance(b, dict) and b.get("type") == "tool_result"
        ]
        if results[: len(ids)] != ids:
            raise RequestRejected(
                f"messages.{i + 1}: tool_use ids {ids} were found without tool_result blocks "
                "immediately after"
            )
    for tool in body.get("tools") or []:
        if str(tool.get("type", "")).startswith("computer_"):
            if headers.get("anthropic-beta") != row.computer_beta:
                raise RequestRejected(f"tools: {tool['type']} needs the beta header {row.computer_beta}")
            raise RequestRejected(
                "this loopback oracle serves our own tools and the text grammar, not the computer tool"
            )
        elif not {"name", "input_schema"} <= set(tool):
            raise RequestRejected("tools: each custom tool needs a name and an input_schema")


def oracle_content(text: str, body: dict[str, Any], call_id: str) -> tuple[list[dict[str, Any]], str]:
    """The oracle's text reply as the API's content blocks (a tool_use when tools were offered)."""
    params = tool_params([t for t in body.get("tools") or [] if "input_schema" in t])
    if not params:
        return [text_block(text)], "end_turn"
    parsed = parse_reply(text, params, strip_tokens=False, first_only=True, forbidden={}, aliases={})
    if parsed.action is None:
        return [text_block(text)], "end_turn"
    args = {
        k: ([list(p) for p in v] if isinstance(v, list) else list(v) if isinstance(v, tuple) else v)
        for k, v in parsed.action.args.items()
    }
    blocks: list[dict[str, Any]] = []
    if parsed.thought:
        blocks.append(text_block(parsed.thought))
    blocks.append(tool_use_block(parsed.action.name, args, call_id))
    return blocks, "tool_use"


def make_app(
    oracle: Model, row: ModelConventions, shape: str = "thought", cache: PromptCache | None = None
) -> FastAPI:
    """The Messages API in front of `oracle`; `cache` the API key's prompt cache (default: one
    of this app's own, as a server that lives for the whole run has)."""
    app = FastAPI(title="webfovea loopback Messages API (oracle)")
    cache = cache if cache is not None else PromptCache(row)
    shaper = Shaper(shape)
    counter = itertools.count(1)
    app.state.requests = []  # bodies as received, for tests

    @app.post("/v1/messages")
    async def messages(request: Request) -> JSONResponse:
        headers = {k.lower(): v for k, v in request.headers.items()}
        if headers.get("anthropic-version") != ANTHROPIC_VERSION:
            return _error(400, f"anthropic-version: this server speaks {ANTHROPIC_VERSION}")
        body = await request.json()
        app.state.requests.append(body)
        invalid = request_errors("beta_messages" if "anthropic-beta" in headers else "messages", body)
        if invalid is not None:
            return _error(400, invalid)
        try:
            check_request(body, headers, row)
            shaper.check(body)
            billed = cache.bill(body)
        except RequestRejected as e:
            return _error(400, str(e))
        cut = False
        if shaper.held is not None:  # a decision already made, answered again
            text, shaper.held = shaper.held, None
            early = None
        else:
            try:
                text = (await oracle.next_reply(model_input_of(body))).text
            except ModelError as e:  # the oracle cannot go on: an API error the client reports
                return _error(500, str(e), "api_error")
            early = shaper.early(body, text)
            cut = early is None and shaper.cuts_now(text)
        n = next(counter)
        if early is not None:
            content, stop = early
        else:
            content, stop = shaper.final(*oracle_content(text, body, f"toolu_oracle_{n:04d}"), cut)
        usage = {
            "input_tokens": billed.input_tokens,
            "cache_creation_input_tokens": billed.cache_creation_input_tokens,
            "cache_read_input_tokens": billed.cache_read_input_tokens,
            "output_tokens": text_tokens(text),
        }
        return JSONResponse(
            anthropic_message(*content, stop_reason=stop, model=str(body.get("model")), usage=usage)
        )

    return app
