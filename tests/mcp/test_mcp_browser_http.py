"""`webfovea mcp --browser --http PORT`: a request without the bearer header is answered 401
with the header to send named (and no OAuth metadata to follow), the official client with the
token drives a task, and stopping the server closes the open task's folder."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import httpx2
from mcp import Client

import webfovea
from tests.mcp.test_mcp_http import ROOT, authed, free_port, wait_for_port
from tests.support.servers import serve_pages


async def test_a_request_without_the_header_is_told_which_to_send(tmp_path):
    port = free_port()
    tmp_path = tmp_path / "runs"  # not there yet: the server makes it before writing the token
    with serve_pages({"/": "<h1>Home</h1>"}) as site:
        proc = subprocess.Popen(
            [sys.executable, "-m", "webfovea.cli", "mcp", "--browser", "--out", str(tmp_path)]
            + ["--task-id", "web", "--offline", "--http", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for_port(port, proc)
            url = f"http://127.0.0.1:{port}/mcp"
            init = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            for headers in ({}, {"Authorization": "Bearer " + "x" * 43}, {"Authorization": "Basic abc"}):
                r = httpx2.post(url, json=init, headers=headers)
                assert r.status_code == 401
                challenge = r.headers["www-authenticate"]
                assert challenge.startswith("Bearer ") and "resource_metadata" not in challenge
                assert "Authorization: Bearer <token>" in challenge
                assert "Authorization: Bearer <token>" in r.json()["error_description"]
                assert str(tmp_path / ".mcp_token") in r.json()["error_description"]
            # An OAuth client's discovery finds nothing to follow.
            for where in (
                "/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-authorization-server",
                "/register",
                "/authorize",
            ):
                r = httpx2.get(f"http://127.0.0.1:{port}{where}")
                assert (
                    r.status_code == 404 and "Authorization: Bearer <token>" in r.json()["error_description"]
                )

            token = (tmp_path / ".mcp_token").read_text().strip()
            async with Client(authed(url, token), mode="legacy") as client:
                assert client.server_info is not None and client.server_info.version == webfovea.__version__
                started = await client.call_tool("start_task", {"task": "look", "url": site.url("/")})
                assert not started.is_error and started.structured_content["task_id"] == "web-001"
                assert 'heading "Home"' in "".join(
                    c.text for c in (await client.call_tool("page_snapshot", {})).content if c.type == "text"
                )
            # Leaving a session does not end the browser's task: the next client carries on.
            assert not (tmp_path / "web-001" / "result.json").exists()
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    result = json.loads((tmp_path / "web-001" / "result.json").read_text())
    assert result["status"] == "interrupted" and "stopped" in result["error"]
    assert not (tmp_path / ".mcp_token").exists()
