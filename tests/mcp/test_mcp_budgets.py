"""Every MCP call counts against the task's budget: unknown tools and bad arguments too,
so a client cannot record more steps than --max-steps by calling what does not exist."""

from __future__ import annotations

import json

from mcp import Client

from tests.support.cdp import cdp_browser  # noqa: F401 - the fixture
from tests.support.servers import serve_pages
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import Launch, McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task


async def test_unknown_tools_spend_the_step_budget(tmp_path, cdp_browser):  # noqa: F811
    config = harness_config(max_steps=3)
    with serve_pages({"/": "<html><body><p>hi</p></body></html>"}) as site:
        task = McpTask(
            Task(task_id="u", task="x", website=site.url("/")),
            tmp_path / "u",
            config,
            launch=Launch(cdp_url=cdp_browser),
        )
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                answers = [await client.call_tool("no_such_tool", {"n": i}) for i in range(20)]
                late = await client.call_tool("click", {"start_box": [10, 10]})
        finally:
            await task.close("interrupted", "test over")
    lines = (tmp_path / "u" / "trajectory.jsonl").read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(x)["outcome"] == "rejected" for x in lines)
    assert all(a.is_error for a in answers)
    assert "status max_steps" in answers[3].content[0].text and late.structured_content["done"] is True
    result = json.loads((tmp_path / "u" / "result.json").read_text())
    assert result["status"] == "max_steps" and result["steps"] == 3


def test_two_servers_never_share_a_task_folder(tmp_path):
    import pytest
    import typer

    from webfovea.cli.mcp import _own_folder

    assert _own_folder(tmp_path, "mcp-1", chosen=False) == "mcp-1"
    assert _own_folder(tmp_path, "mcp-1", chosen=False) == "mcp-1-2"  # the same second
    (tmp_path / "mcp-1" / "trajectory.jsonl").write_text("{}\n")
    with pytest.raises(typer.Exit):
        _own_folder(tmp_path, "mcp-1", chosen=True)
    assert (tmp_path / "mcp-1" / "trajectory.jsonl").read_text() == "{}\n"  # not wiped
    (tmp_path / "file").write_text("x")
    with pytest.raises(typer.Exit):  # --out FILE: one line, no traceback
        _own_folder(tmp_path / "file", "t", chosen=True)
