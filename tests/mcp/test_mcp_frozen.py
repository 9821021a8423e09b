"""A click that freezes the renderer under MCP: the click is recorded, the task ends
`page_unresponsive` at once (result.json written then, not at disconnect), and every later
call is a tool result saying so, not a bare protocol error."""

from __future__ import annotations

import json

from mcp import Client

from tests.support.servers import serve_pages
from webfovea.mcp.server import build_server
from webfovea.mcp.task_session import McpTask
from webfovea.observation.sizing import harness_config
from webfovea.task import Task

PAGE = """<html><body style="margin:0"><button
  style="position:absolute;left:50px;top:50px;width:200px;height:60px"
  onclick="navigator.sendBeacon('/clicked'); for (;;) {}">Show</button></body></html>"""


async def test_a_frozen_page_ends_the_mcp_task_with_the_click_recorded(tmp_path):
    config = harness_config().model_copy(update={"unresponsive_s": 2.0})
    with serve_pages({"/": PAGE, "/clicked": "ok"}) as site:
        task = McpTask(Task(task_id="f", task="x", website=site.url("/")), tmp_path / "f", config)
        await task.start()
        try:
            async with Client(build_server(task)) as client:
                await client.call_tool("observe", {})
                click = await client.call_tool("click", {"start_box": [150, 80]})
                result = json.loads((tmp_path / "f" / "result.json").read_text())  # written already
                later = [
                    await client.call_tool("observe", {}),
                    await client.call_tool("finished", {"content": "x"}),
                ]
        finally:
            await task.close("interrupted", "test over")
        assert "/clicked" in site.log
    assert click.is_error and "page_unresponsive" in click.content[0].text
    assert result["status"] == "page_unresponsive" and result["steps"] == 1
    for answer in later:
        assert answer.is_error and answer.structured_content["status"] == "page_unresponsive"
    (line,) = (tmp_path / "f" / "trajectory.jsonl").read_text().splitlines()
    assert json.loads(line)["action"]["name"] == "click"
