"""A scripted fake model endpoint: a real HTTP server on loopback that answers from a script.

Each POST is first validated against the official SDK's request type for its path (Chat
Completions, Messages — the beta type when an `anthropic-beta` header is sent —, Responses,
Gemini's generateContent, checked against google-genai's types), unknown keys forbidden: a request the real API would reject gets its 400 in the API's error
shape, and leaving `fake_llm` fails the test (`validate=False` for the tests that send
garbage on purpose). A valid POST takes the next scripted answer (or the default once the
script is used up): a status with headers and a JSON body — built from the SDKs' own classes
(`webfovea_proving_ground.providers.sdk_replies`) —, optionally after hanging. Every request is
recorded with its arrival time, path, headers, JSON body and what the validation said.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from webfovea_proving_ground.providers.gemini_replies import gemini_error, gemini_request_errors
from webfovea_proving_ground.providers.sdk_replies import (
    anthropic_error,
    anthropic_message,
    chat_completion,
    openai_error,
    text_block,
)
from webfovea_proving_ground.providers.sdk_requests import Api, request_errors, warm

GEMINI = "gemini"  # generateContent: checked by gemini_request_errors


@dataclass
class Answer:
    status: int = 200
    body: Any = None  # JSON-serialisable, or str sent as text
    headers: dict[str, str] = field(default_factory=dict)
    hang_s: float = 0.0  # wait this long before answering (to outlast a client timeout)


@dataclass
class Received:
    t: float  # time.monotonic() at arrival
    path: str
    headers: dict[str, str]
    body: Any
    invalid: str | None = None  # why the SDK's request type rejects it


def api_of(path: str, headers: dict[str, str]) -> Api | str | None:
    if path.endswith(":generateContent"):
        return GEMINI
    if path.endswith("/chat/completions"):
        return "chat"
    if path.endswith("/responses"):
        return "responses"
    if path.endswith("/messages"):
        return "beta_messages" if "anthropic-beta" in headers else "messages"
    return None


def openai_ok(text: str | None, prompt: int = 11, completion: int = 7, **fields: Any) -> Answer:
    """A ChatCompletion (fields: tool_calls, finish_reason, refusal, cached_tokens)."""
    return Answer(200, chat_completion(text, prompt_tokens=prompt, completion_tokens=completion, **fields))


def compatible_ok(content: Any) -> Answer:
    """What an OpenAI-compatible server (not OpenAI) may answer: `content` as a list of parts,
    no `finish_reason`: outside the SDK's ChatCompletion, so built by hand."""
    message = {"role": "assistant", "content": content}
    return Answer(
        200, {"id": "chatcmpl-x", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
    )


def anthropic_ok(text: str, input_tokens: int = 13, output_tokens: int = 5) -> Answer:
    usage = {"input_tokens": input_tokens, "output_tokens": output_tokens}
    return Answer(200, anthropic_message(text_block(text), usage=usage))


def error(status: int, message: str, **headers: str) -> Answer:
    return Answer(status, openai_error(message, "test_error"), dict(headers))


SDK_APIS: tuple[Api, ...] = ("chat", "responses", "messages", "beta_messages")


class FakeLLM:
    def __init__(
        self,
        script: list[Answer],
        default: Answer | None = None,
        validate: bool = True,
        warm_apis: tuple[Api, ...] = SDK_APIS,
    ) -> None:
        self.script = list(script)
        self.validate = validate
        if validate:  # before the first request, whose timing a test may measure
            warm(*warm_apis)  # tens of seconds on a loaded machine: a Gemini test needs none
        self.default = default
        self.received: list[Received] = []
        self.stop = threading.Event()
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - stdlib name
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                headers = {k.lower(): v for k, v in self.headers.items()}
                api = api_of(self.path, headers)
                invalid = None
                if api == GEMINI and owner.validate:
                    invalid = gemini_request_errors(body)
                elif api is not None and owner.validate:
                    invalid = request_errors(api, body)  # type: ignore[arg-type]
                with owner._lock:
                    owner.received.append(Received(time.monotonic(), self.path, headers, body, invalid))
                    if invalid is not None and api == GEMINI:
                        ans: Answer | None = Answer(400, gemini_error(400, invalid, "INVALID_ARGUMENT"))
                    elif invalid is not None:
                        shape = anthropic_error if api in ("messages", "beta_messages") else openai_error
                        ans = Answer(400, shape(invalid))
                    else:
                        ans = owner.script.pop(0) if owner.script else owner.default
                if ans is None:
                    ans = error(500, "script exhausted")
                if ans.hang_s:
                    owner.stop.wait(ans.hang_s)
                data = (json.dumps(ans.body) if not isinstance(ans.body, str) else ans.body).encode()
                try:
                    self.send_response(ans.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in ans.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (timeout) and closed the socket

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def attempts(self) -> int:
        return len(self.received)

    @property
    def invalid(self) -> list[str]:
        return [r.invalid for r in self.received if r.invalid is not None]


@contextmanager
def fake_llm(
    script: list[Answer],
    default: Answer | None = None,
    validate: bool = True,
    warm_apis: tuple[Api, ...] = SDK_APIS,
) -> Iterator[FakeLLM]:
    srv = FakeLLM(script, default, validate, warm_apis)
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.stop.set()  # release handlers still hanging
        srv.httpd.shutdown()
        srv.httpd.server_close()
    assert not srv.invalid, f"the client sent requests the API's request type rejects: {srv.invalid}"
