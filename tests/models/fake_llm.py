"""A scripted fake model endpoint: a real HTTP server on loopback that answers from a script.

Each POST takes the next scripted answer (or the default once the script is used
up): a status with headers and a JSON body, optionally after hanging. Every
request is recorded with its arrival time, path, headers and JSON body.
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


def openai_ok(text: str | list[dict[str, Any]], prompt: int = 11, completion: int = 7) -> Answer:
    return Answer(
        200,
        {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
        },
    )


def anthropic_ok(text: str, input_tokens: int = 13, output_tokens: int = 5) -> Answer:
    return Answer(
        200,
        {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        },
    )


def error(status: int, message: str, **headers: str) -> Answer:
    return Answer(status, {"error": {"message": message, "type": "test_error"}}, dict(headers))


class FakeLLM:
    def __init__(self, script: list[Answer], default: Answer | None = None) -> None:
        self.script = list(script)
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
                with owner._lock:
                    owner.received.append(
                        Received(
                            time.monotonic(), self.path, {k.lower(): v for k, v in self.headers.items()}, body
                        )
                    )
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


@contextmanager
def fake_llm(script: list[Answer], default: Answer | None = None) -> Iterator[FakeLLM]:
    srv = FakeLLM(script, default)
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.stop.set()  # release handlers still hanging
        srv.httpd.shutdown()
        srv.httpd.server_close()
