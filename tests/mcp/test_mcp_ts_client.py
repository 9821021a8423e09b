"""The official TypeScript MCP client (@modelcontextprotocol/sdk, run by Node) drives
`webfovea mcp --browser` over stdio: the version, the tools, navigate, the snapshot, a click
by ref the page's server sees, and `finished`. Over HTTP, as an OAuth-capable client without
the token (the way the MCP Inspector connects), it is told which header to send and never
redirected to an authorization page; with the header it connects.

The SDK is installed once with npm into a cache folder ($WEBFOVEA_NPM_CACHE/mcp-ts-client, the
npm cache of tests/support/npm.py, default ~/.cache/webfovea-tests-npm) from tests/support/mcp_ts_client/package.json; the test is skipped,
saying why, when Node or npm is missing or the package cannot be fetched."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import webfovea
from tests.mcp.test_mcp_browser import HOME
from tests.mcp.test_mcp_http import free_port, wait_for_port
from tests.support.npm import NPM_CACHE
from tests.support.servers import serve_pages

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parents[1] / "support" / "mcp_ts_client"


def ts_client_dir() -> Path:
    """The folder holding client.mjs beside an installed SDK, or a skip that says why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js and npm are needed for the TypeScript MCP client check (not found on PATH)")
    # Not $WEBFOVEA_NODE_CACHE: that is Node's compile cache, fresh for every test run (conftest).
    cache = NPM_CACHE / "mcp-ts-client"
    cache.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "client.mjs", "http_client.mjs"):
        shutil.copyfile(SOURCE / name, cache / name)
    if not (cache / "node_modules/@modelcontextprotocol/sdk/package.json").exists():
        try:
            res = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--no-package-lock"],
                cwd=cache,
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            pytest.skip("npm could not fetch @modelcontextprotocol/sdk within 300 s")
        if res.returncode != 0:
            pytest.skip(f"npm could not fetch @modelcontextprotocol/sdk: {res.stderr.strip()[-300:]}")
    return cache


def test_the_typescript_client_drives_the_browser(tmp_path):
    where = ts_client_dir()
    server = [sys.executable, "-m", "webfovea.cli", "mcp", "--browser", "--out", str(tmp_path)]
    server += ["--task-id", "ts", "--offline", "--disable", "ocr_check"]
    with serve_pages({"/": HOME, "/clicked": "ok"}) as site:
        env = {**os.environ, "MCP_SERVER_CMD": json.dumps(server), "MCP_SERVER_CWD": str(ROOT)}
        env["MCP_PAGE"] = site.url("/")
        res = subprocess.run(
            ["node", str(where / "client.mjs")], env=env, capture_output=True, text=True, timeout=180
        )
        assert res.returncode == 0, res.stderr[-2000:]
        seen = json.loads(res.stdout.strip().splitlines()[-1])
        assert "/clicked" in site.log, seen  # the click by ref reached the page's server
    assert seen["version"] == webfovea.__version__
    assert {"navigate", "page_snapshot", "tab_open", "click", "finished"} <= set(seen["tools"])
    assert "<|" not in seen["titles"]
    assert seen["navigated"] and seen["ref"] and seen["clicked"], seen
    assert seen["status"] == "finished"
    result = json.loads((tmp_path / "ts-001" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "from node"


def test_the_typescript_client_over_http_is_told_the_header_not_sent_to_oauth(tmp_path):
    where = ts_client_dir()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "webfovea.cli", "mcp", "--browser", "--out", str(tmp_path)]
        + ["--offline", "--http", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(port, proc)
        env = {**os.environ, "MCP_URL": f"http://127.0.0.1:{port}/mcp"}
        env["MCP_TOKEN"] = (tmp_path / ".mcp_token").read_text().strip()
        res = subprocess.run(
            ["node", str(where / "http_client.mjs")], env=env, capture_output=True, text=True, timeout=120
        )
        assert res.returncode == 0, res.stderr[-2000:]
        seen = json.loads(res.stdout.strip().splitlines()[-1])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    # Without the token, the OAuth-capable client is told which header to send; no redirect.
    assert "Authorization: Bearer <token>" in seen["refused"], seen
    assert not [c for c in seen["oauth"] if c.startswith("redirectToAuthorization")], seen
    assert seen["version"] == webfovea.__version__ and "start_task" in seen["tools"]
