"""An MCP task the harness stops is recorded under the stop's own status, as a bench task is:
the same task driver ends both (webfovea/driving). It once recorded every ending that was not
`finished` as `scroll_breaker`."""

from __future__ import annotations

import json

import pytest
from mcp import Client

from tests.support.cdp import cdp_browser  # noqa: F401 - the fixture
from tests.support.servers import serve_pages
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import Launch, McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task

PAGE = "<html><body style='margin:0'><button style='margin:40px'>nothing happens</button></body></html>"
DEAD_SPOT = {"start_box": [900, 600]}  # blank page, far from the button
UNKNOWN_REF = {"ref": "e999"}  # never in the snapshot of this page

CASES = [
    # (how the harness is set up, the call the client repeats, the status it ends with)
    ({"loop_breaker_limit": 3}, DEAD_SPOT, "loop_breaker"),
    ({"observation": "structured", "stale_ref_budget": 1}, UNKNOWN_REF, "stale_refs"),
]


@pytest.mark.parametrize(("settings", "call", "status"), CASES, ids=[c[2] for c in CASES])
async def test_a_stop_by_the_harness_is_recorded_under_its_status(
    tmp_path,
    cdp_browser,  # noqa: F811
    settings,
    call,
    status,
):
    with serve_pages({"/": PAGE}) as site:
        task = McpTask(
            Task(task_id="e", task="x", website=site.url("/")),
            tmp_path / "e",
            harness_config(**settings),
            launch=Launch(cdp_url=cdp_browser),
        )
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                await client.call_tool("observe", {})
                results = []
                for _ in range(6):
                    results.append(await client.call_tool("click", call))
                    if results[-1].structured_content.get("done"):
                        break
                last = results[-1]
                assert last.structured_content["status"] == status, last.content
                assert "The task is over (status " + status in last.content[0].text
                after = await client.call_tool("observe", {})
                assert after.is_error and after.structured_content["status"] == status
        finally:
            await task.close("interrupted", "test over")
    result = json.loads((tmp_path / "e" / "result.json").read_text())
    assert result["status"] == status and result["error"]
    # The verifier switch is on but nobody answers it without --verifier: said, not left null.
    assert result["verification"] is None
    assert result["verifier_off"] == (
        "verifier off: the agent is an MCP client, which the server cannot ask; give --verifier SPEC"
    )
    assert result["steps"] == len(results) and result["usage"]["model_calls"] == len(results)
    steps = [json.loads(line) for line in (tmp_path / "e" / "trajectory.jsonl").read_text().splitlines()]
    assert len(steps) == len(results) and all(s["action"]["name"] == "click" for s in steps)
