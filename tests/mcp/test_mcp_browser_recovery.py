"""The long-lived browser outlives its browser: when Chromium goes away mid-task, that task
ends `browser_error` (its result.json says so) and the next `start_task` launches a new
browser and carries on, in process with the SDK's in-memory client."""

from __future__ import annotations

import json

from mcp import Client

from tests.mcp.test_mcp_browser import HOME, TWO
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.mcp.browser import McpBrowser
from webfovea.mcp.browser_server import build_browser_server
from webfovea.mcp.task_session import Launch


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def test_a_lost_browser_ends_its_task_and_the_next_task_gets_a_new_one(tmp_path):
    config = make_config(observation="hybrid")
    browser = McpBrowser(tmp_path, config, launch=Launch(offline=True), prefix="r")
    await browser.start()
    try:
        with serve_pages({"/": HOME, "/two": TWO}) as site:
            async with Client(build_browser_server(browser)) as client:
                first = await client.call_tool("start_task", {"task": "one", "url": site.url("/")})
                assert not first.is_error, text_of(first)
                assert browser.session is not None and browser.session.browser is not None
                await browser.session.browser.close()  # the browser crashes under the task
                lost = await client.call_tool("observe", {})
                assert lost.is_error and "browser_error" in text_of(lost)

                second = await client.call_tool("start_task", {"task": "two", "url": site.url("/two")})
                assert not second.is_error, text_of(second)
                snap = await client.call_tool("page_snapshot", {})
                assert 'heading "Second"' in text_of(snap)
    finally:
        await browser.close("interrupted", "test over")
    one = json.loads((tmp_path / "r-001" / "result.json").read_text())
    two = json.loads((tmp_path / "r-002" / "result.json").read_text())
    assert one["status"] == "browser_error" and two["status"] == "interrupted"
