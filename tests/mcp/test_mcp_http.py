"""`webfovea mcp --http PORT`: the same tools over streamable HTTP, driven by the official
SDK's client; ending the MCP session closes the task folder, and the server stops cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.test_mcp_stdio import FORM, centre_of, image_of, text_of
from tests.support.servers import serve_pages

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def authed(url: str, token: str) -> object:
    """The SDK's streamable HTTP transport, sending the server's bearer token."""
    return streamable_http_client(
        url, http_client=httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
    )


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "server exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on {port} after {timeout} s")


async def test_client_fills_a_form_over_streamable_http(tmp_path):
    port = free_port()
    with serve_pages({"/": FORM, "/submit": "<p>thanks</p>"}) as site:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "webfovea.cli",
                "mcp",
                "--url",
                site.url("/"),
                "--out",
                str(tmp_path),
                "--task-id",
                "web",
                "--offline",
                "--http",
                str(port),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        try:
            wait_for_port(port, proc)
            url = f"http://127.0.0.1:{port}/mcp"
            token_file = tmp_path / "web" / ".mcp_token"
            assert token_file.stat().st_mode & 0o777 == 0o600
            token = token_file.read_text().strip()
            # No token, a wrong one: refused before any tool runs.
            for headers in ({}, {"Authorization": "Bearer " + "x" * 43}):
                r = httpx2.post(
                    url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers
                )
                assert r.status_code == 401
            async with Client(authed(url, token)) as client:  # the 2026-07-28 era: no session
                assert "fill" in [t.name for t in (await client.list_tools()).tools]
                image = image_of(await client.call_tool("observe", {}))
            assert not (tmp_path / "web" / "result.json").exists()  # nothing ended the task yet
            r = httpx2.delete(url)  # an unauthenticated DELETE cannot end the task
            assert r.status_code == 401 and not (tmp_path / "web" / "result.json").exists()
            async with Client(authed(url, token), mode="legacy") as client:  # a session, ended by DELETE
                filled = await client.call_tool(
                    "fill", {"start_box": centre_of(image, (255, 0, 255)), "content": "Grace Hopper\n"}
                )
                assert not filled.is_error, text_of(filled)
                assert "Pressed Enter" in text_of(filled)
            # Leaving the client ends its MCP session: the task is closed although the server runs on.
            result = json.loads((tmp_path / "web" / "result.json").read_text())
            assert result["status"] == "interrupted" and result["steps"] == 1
            assert proc.poll() is None
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
    assert "/submit?name=Grace+Hopper" in site.log
    assert proc.returncode == 0, err
    assert out == ""  # nothing on stdout: messages go to stderr
    assert token not in err and not token_file.exists()  # never printed; removed with the server


def test_stopping_the_server_writes_the_result(tmp_path):
    port = free_port()
    with serve_pages({"/": FORM}) as site:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "webfovea.cli",
                "mcp",
                "--url",
                site.url("/"),
                "--out",
                str(tmp_path),
                "--task-id",
                "stop",
                "--offline",
                "--http",
                str(port),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        try:
            wait_for_port(port, proc)
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    result = json.loads((tmp_path / "stop" / "result.json").read_text())
    assert result["status"] == "interrupted" and "stopped" in result["error"] and result["steps"] == 0


def test_a_failed_start_says_what_to_do_and_writes_the_result(tmp_path):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "webfovea.cli",
            "mcp",
            "--url",
            "http://127.0.0.1:9/",
            "--out",
            str(tmp_path),
            "--task-id",
            "nochrome",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "WEBFOVEA_CHROME": "/nonexistent/chrome"},
    )
    assert res.returncode == 1 and res.stdout == ""
    assert "apt-get install -y chromium" in res.stderr and "Traceback" not in res.stderr
    result = json.loads((tmp_path / "nochrome" / "result.json").read_text())
    assert result["status"] == "error" and "WEBFOVEA_CHROME" in result["error"]
