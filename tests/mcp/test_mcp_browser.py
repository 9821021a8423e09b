"""`webfovea mcp --browser` (python -m webfovea.cli) driven by the official Python client over
stdio: one browser kept across tasks and tabs. The client navigates to a loopback page, reads
the snapshot, clicks and fills by ref (the page's server sees the effect), is refused another
site with the site guard's reason, opens, selects and closes tabs, finishes a task and starts a
second one in the same browser — two run folders — and the server reports its version and clean
tool titles."""

from __future__ import annotations

import json
import re

from mcp import Client

import webfovea
from tests.mcp.test_mcp_stdio import server_params, text_of
from tests.support.servers import serve_pages

HOME = """<html><head><title>Home</title></head><body>
<h1>Counter</h1>
<button onclick="fetch('/clicked').then(() => { document.querySelector('h1').textContent = 'Clicked'; })">Count</button>
<label>Name <input name="name" oninput="this.dataset.seen = this.value"></label>
<a href="/two">Second page</a>
</body></html>"""
TWO = "<html><head><title>Two</title></head><body><h1>Second</h1><p>the other page</p></body></html>"
BROWSER_TOOLS = {"start_task", "navigate", "page_snapshot", "tabs", "tab_open", "tab_select", "tab_close"}


def ref_of(snapshot: str, role: str, name: str) -> str:
    """The [ref=…] of the element the snapshot lists as `role "name"`."""
    m = re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]', snapshot)
    assert m, f'no {role} "{name}" in:\n{snapshot}'
    return m.group(1)


def browser_params(site_url: str, out, *extra: str):
    p = server_params(site_url, out, "--browser", "--disable", "ocr_check", *extra)
    i = p.args.index("--url")  # no start page: the client navigates
    p.args[i : i + 2] = []
    return p


async def test_one_browser_across_tasks_and_tabs(tmp_path):
    with serve_pages({"/": HOME, "/two": TWO, "/clicked": "ok"}) as site, serve_pages({"/": TWO}) as other:
        async with Client(browser_params(site.url("/"), tmp_path), mode="legacy") as client:
            assert client.server_info is not None and client.server_info.version == webfovea.__version__
            tools = (await client.list_tools()).tools
            assert BROWSER_TOOLS | {"observe", "click", "fill", "back", "finished"} <= {t.name for t in tools}
            for t in tools:  # no chat-template token in anything a client shows
                assert "<|" not in (t.title or "") and "<|" not in (t.description or ""), t.name
            assert next(t for t in tools if t.name == "click").title == "click(ref='e12' or start_box=[x, y])"

            idle = await client.call_tool("observe", {})
            assert idle.is_error and "start_task" in text_of(idle)

            went = await client.call_tool("navigate", {"url": site.url("/")})  # starts a task
            assert not went.is_error, text_of(went)
            snap = text_of(await client.call_tool("page_snapshot", {}))
            clicked = await client.call_tool("click", {"ref": ref_of(snap, "button", "Count")})
            assert not clicked.is_error, text_of(clicked)
            assert "/clicked" in site.log  # the page's own server saw the click
            assert 'heading "Clicked"' in text_of(await client.call_tool("page_snapshot", {}))
            filled = await client.call_tool(
                "fill", {"ref": ref_of(snap, "textbox", "Name"), "content": "Ada"}
            )
            assert not filled.is_error and "'Ada'" in text_of(filled), text_of(filled)

            away = await client.call_tool("navigate", {"url": other.url("/")})
            assert away.is_error and "outside this task's site" in text_of(away)
            assert "/" not in other.log

            opened = await client.call_tool("tab_open", {"url": site.url("/two")})
            assert [t["current"] for t in opened.structured_content["tabs"]] == [False, True]
            assert 'heading "Second"' in text_of(await client.call_tool("page_snapshot", {}))
            await client.call_tool("tab_select", {"index": 0})
            assert 'heading "Clicked"' in text_of(await client.call_tool("page_snapshot", {}))
            closed = await client.call_tool("tab_close", {"index": 1})
            assert len(closed.structured_content["tabs"]) == 1
            last = await client.call_tool("tab_close", {})
            assert last.is_error and "last tab" in text_of(last)

            done = await client.call_tool("finished", {"content": "counted"})
            assert done.structured_content["status"] == "finished", text_of(done)
            after = await client.call_tool("click", {"ref": "e1"})
            assert after.is_error and "start_task" in text_of(after)  # the task ended, not the server

            second = await client.call_tool("start_task", {"task": "read page two", "url": site.url("/two")})
            assert not second.is_error, text_of(second)
            back_home = await client.call_tool("navigate", {"url": site.url("/")})
            assert not back_home.is_error
            went_back = await client.call_tool("back", {})
            assert not went_back.is_error and "/two" in text_of(went_back), text_of(went_back)
            await client.call_tool("finished", {"content": "second"})

    folders = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert [p.name for p in folders] == ["form-001", "form-002"]
    first, two = (json.loads((p / "result.json").read_text()) for p in folders)
    assert first["status"] == "finished" and first["answer"] == "counted" and first["steps"] == 3
    assert two["status"] == "finished" and two["answer"] == "second" and two["task"] == "read page two"
    steps = [json.loads(x) for x in (folders[0] / "trajectory.jsonl").read_text().splitlines()]
    assert steps[0]["action"]["name"] == "click" and steps[0]["action"]["args"]["ref"].startswith("e")
