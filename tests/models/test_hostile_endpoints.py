"""Model endpoints that misbehave on purpose: a body that never ends, a
Retry-After that is not a number of seconds, JSON nested 50,000 deep. Each ends in a clear
ModelError, quickly, with the client's memory bounded."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.models.fake_llm import Answer, error, fake_llm, openai_ok
from tests.models.inputs import make_input
from webfovea.models.anthropic_client import AnthropicModel
from webfovea.models.base import ModelError
from webfovea.models.openai_client import OpenAIModel
from webfovea.models.retry import MAX_RESPONSE_BYTES, RetryPolicy, parse_retry_after

CHUNK = b"x" * 65536


@contextmanager
def endless(declared: int | None = None) -> Iterator[tuple[str, list[int]]]:
    """A server whose answer never ends (chunked), or declares a huge length; `sent` counts bytes."""
    sent = [0]
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if declared is not None:
                self.send_header("Content-Length", str(declared))
            else:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                head = b'{"choices": ["'
                while not stop.is_set():
                    data, head = head + CHUNK, b""
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data) if declared is None else data)
                    sent[0] += len(data)
            except OSError:
                pass  # the client hung up: what it should do

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", sent
    finally:
        stop.set()
        httpd.shutdown()
        httpd.server_close()


async def test_an_endless_body_is_cut_at_the_cap_and_not_retried():
    with endless() as (url, sent):
        model = OpenAIModel("gpt-4o", base_url=url, retry=RetryPolicy(max_attempts=3, budget_s=60))
        t0 = time.monotonic()
        with pytest.raises(ModelError, match=r"past the 16 MB a model reply may take.*not retried"):
            await model.next_reply(make_input(1))
        await model.aclose()
        assert time.monotonic() - t0 < 10
    # One attempt, stopped near the cap (the server may have queued a few socket buffers more).
    assert sent[0] < 3 * MAX_RESPONSE_BYTES


async def test_a_body_that_declares_a_huge_length_is_refused_before_reading():
    with endless(declared=50 * 1024 * 1024 * 1024) as (url, sent):
        model = OpenAIModel("gpt-4o", base_url=url, retry=RetryPolicy(max_attempts=3, budget_s=60))
        with pytest.raises(ModelError, match=r"declares 53,687,091,200 bytes"):
            await model.next_reply(make_input(1))
        await model.aclose()


@pytest.mark.parametrize("value", ["nan", "inf", "-5", "1e308", "Wed, 21 Oct 2999 07:28:00 GMT"])
def test_retry_after_that_is_no_sane_wait_is_ignored(value):
    assert parse_retry_after(value) is None
    assert parse_retry_after("2.5") == 2.5


async def test_nan_retry_after_falls_back_to_our_backoff():
    policy = RetryPolicy(max_attempts=4, budget_s=20, base_delay_s=0.3, max_delay_s=0.3)
    script = [error(429, "slow", **{"Retry-After": "nan"}), error(429, "slow", **{"Retry-After": "1e308"})]
    with fake_llm([*script, openai_ok("Action: wait()")]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, retry=policy)
        reply = await model.next_reply(make_input(1))
        await model.aclose()
        times = [r.t for r in srv.received]
    assert reply.text == "Action: wait()" and srv.attempts == 3
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= 0.1  # backoff, not 0 s


async def test_json_nested_50000_deep_is_a_model_error():
    deep = "[" * 50_000 + "]" * 50_000
    body = (
        '{"id": "m", "type": "message", "content": [{"type": "tool_use", "id": "t", "name": "x", "input": '
        + deep
        + "}]}"
    )
    with fake_llm([Answer(200, body)]) as srv:
        model = AnthropicModel("claude-sonnet-4-6", base_url=srv.base_url)
        with pytest.raises(ModelError, match="nested too deeply"):
            await model.next_reply(make_input(1))
        await model.aclose()


async def test_an_error_body_nested_deep_still_reports_its_status():
    deep = "[" * 50_000 + "]" * 50_000
    with fake_llm([Answer(400, deep)]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url)
        with pytest.raises(ModelError, match="HTTP 400"):
            await model.next_reply(make_input(1))
        await model.aclose()
