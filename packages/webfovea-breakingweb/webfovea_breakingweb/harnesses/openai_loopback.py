"""A loopback OpenAI-compatible chat server: the `model` another harness's agent loop talks to
(browser-use's `ChatOpenAI` pointed at its `base_url`). Each `POST /v1/chat/completions` hands
the request body — the messages and the response format exactly as that harness built them — to
a `reply(body) -> str` and answers with a chat completion whose message content is that string.

Requests are served one at a time, all in the server's own thread: the decision-maker behind
`reply` may hold a synchronous Playwright connection, which belongs to the thread that made it
(`on_start` runs there first, `on_stop` last).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

Reply = Callable[[dict[str, Any]], str]


class LoopbackChat:
    """`with LoopbackChat(reply) as chat: ... chat.base_url ...` — the server runs inside."""

    def __init__(
        self,
        reply: Reply,
        on_start: Callable[[], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> None:
        self.reply, self.on_start, self.on_stop = reply, on_start, on_stop
        self.requests = 0
        self.errors: list[str] = []  # a reply that raised: the agent is told (HTTP 500) and it is kept here
        self._server = HTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._serve, name="loopback-chat", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> LoopbackChat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._thread.join(timeout=30)
        self._server.server_close()

    def _serve(self) -> None:
        if self.on_start is not None:
            self.on_start()
        try:
            self._server.serve_forever(poll_interval=0.1)
        finally:
            if self.on_stop is not None:
                self.on_stop()

    def _answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.requests += 1
        try:
            content = self.reply(body)
        except Exception as e:  # noqa: BLE001 - the agent loop gets an error reply, the run keeps the reason
            self.errors.append(f"{type(e).__name__}: {e}")
            return 500, {"error": {"message": self.errors[-1], "type": "server_error"}}
        return 200, completion(str(body.get("model") or "oracle"), content, self.requests)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        chat = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no such endpoint {self.path}"}})
                    return
                size = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(size) or b"{}")
                except json.JSONDecodeError as e:
                    self._send(400, {"error": {"message": f"the body is not JSON: {e}"}})
                    return
                self._send(*chat._answer(body))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:  # the run's own log says what was asked
                return

        return Handler


def completion(model: str, content: str, n: int) -> dict[str, Any]:
    """A chat completion as OpenAI's API returns it (the fields clients read)."""
    return {
        "id": f"chatcmpl-loopback-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }
