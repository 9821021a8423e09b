"""`webfovea mcp --models routes.toml`: the client is the act role; the file's verify route is the
model the server itself asks when the client calls `finished` (a fake OpenAI-compatible server
on loopback receives the call), and result.json records the routes. A bad file stops the server
before it starts, naming the key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages

PAGE = "<html><body style='margin:0;background:#d22'><h1>Red</h1></body></html>"


def _params(url: str, out: Path, routes: Path) -> StdioServerParameters:
    keep = ("WEBFOVEA", "PYTHON", "PLAYWRIGHT")
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "webfovea.cli", "mcp", "--url", url, "--out", str(out), "--task-id", "look"]
        + ["--offline", "--models", str(routes)],
        env={**{k: v for k, v in os.environ.items() if k.startswith(keep)}, "OPENAI_API_KEY": "k"},
        cwd=str(Path(__file__).resolve().parents[2]),
    )


async def test_the_verify_route_checks_the_clients_answer(tmp_path: Path) -> None:
    verdict = openai_ok("VERDICT: accept\nREASON: the page is red\nLOOK AT: -", 600, 5)
    with serve_pages({"/": PAGE}) as site, fake_llm([verdict]) as vlm:
        routes = tmp_path / "routes.toml"
        routes.write_text(
            f'act = "openai:gpt-4o"\nverify = {{model = "openai:route-verifier", base_url = "{vlm.base_url}"}}\n'
        )
        async with Client(_params(site.url("/"), tmp_path, routes)) as client:
            await client.call_tool("observe", {})
            done = await client.call_tool("finished", {"content": "Red"})
            assert not done.is_error, done.content
        bodies = [r.body for r in vlm.received]
    assert [b["model"] for b in bodies] == ["route-verifier"] and "Red" in json.dumps(bodies[0])
    result = json.loads((tmp_path / "look" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "Red"
    assert result["model"] == "mcp:openai:gpt-4o"  # the file's act sized the screenshot
    assert result["routes"]["verify"] == {"model": "openai:route-verifier", "via": "own"}
    assert result["verification"]["verdicts"][0]["verdict"] == "accept"
    assert result["verifier_usage"]["prompt_tokens"] == 600


def test_a_bad_routes_file_stops_the_server_naming_the_key(tmp_path: Path) -> None:
    routes = tmp_path / "routes.toml"
    routes.write_text('look = {model = "oracle", port = 3}\n')
    res = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "mcp", "--url", "http://127.0.0.1:9/", "--out", str(tmp_path)]
        + ["--models", str(routes)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "look: unknown key(s) port" in res.stderr.replace("\n", " ")
