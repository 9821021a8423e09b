"""The long-lived browser's MCP server: browser tools beside the task's own tools.

Beside `observe` and the action tools (answered by `calls.TaskTools` for the open task, in
the hybrid observation: a target is a point on the screenshot or a `ref` from the snapshot),
the server offers what a Playwright MCP user reaches for first: `start_task`, `navigate`
(within the task's site guard; a blocked URL is refused with the guard's reason),
`page_snapshot` (the accessibility snapshot with its [ref=eN] references, exactly as
structured mode shows it to a model) and the tab tools. These browser tools are not steps:
they are not recorded in trajectory.jsonl and do not count against the step budget; what the
page does is acted on only through the action tools, which are.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import jsonschema
import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from playwright.async_api import Page

from webfovea import __version__
from webfovea.actions import catalog
from webfovea.driving.endings import first_line
from webfovea.harness import Harness
from webfovea.mcp.browser import BROWSING, McpBrowser
from webfovea.mcp.calls import TaskTools, scrubbed, text_result
from webfovea.mcp.server import SERVER_NAME
from webfovea.mcp.task_session import McpTask, ObserveFailed, TaskClosed
from webfovea.mcp.tools import point_words, tool_list
from webfovea.observation.modes import get as get_mode

NO_TASK = "No task is open: call start_task(task, url) or navigate(url) first."

_URL = {"type": "string", "description": "An http(s) address."}
_INDEX = {"type": "integer", "minimum": 0, "description": "The tab's index as `tabs` lists it."}


def _tool(name: str, title: str, description: str, props: dict[str, Any], required: list[str]) -> types.Tool:
    schema = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    return types.Tool(name=name, title=title, description=description, input_schema=schema)


BROWSER_TOOLS = [
    _tool(
        "start_task",
        "Start a task",
        "End the open task (if any) and start a new one: a fresh tab on `url`, a new run folder "
        "(result.json, trajectory.jsonl). `finished` ends a task, not the server.",
        {"task": {"type": "string", "description": "The instruction, recorded in result.json."}, "url": _URL},
        ["task", "url"],
    ),
    _tool(
        "navigate",
        "Open a URL",
        "Open an address in the current tab, within the task's site (other sites are refused "
        "with the reason). With no task open, starts one on that address.",
        {"url": _URL},
        ["url"],
    ),
    _tool(
        "page_snapshot",
        "Accessibility snapshot",
        "The page's accessibility snapshot, one line per element with [ref=eN] references: pass "
        "a ref to click, fill, select, hover or scroll (`ref`) instead of a point.",
        {},
        [],
    ),
    _tool("tabs", "List tabs", "The open tabs: index, URL, title, and which one is current.", {}, []),
    _tool(
        "tab_open",
        "Open a tab",
        "Open a new tab (on `url` if given, within the task's site) and make it current.",
        {"url": _URL},
        [],
    ),
    _tool("tab_select", "Select a tab", "Make the tab at `index` current.", {"index": _INDEX}, ["index"]),
    _tool(
        "tab_close",
        "Close a tab",
        "Close the tab at `index` (default: the current one); the last open tab becomes current. "
        "The task's last tab cannot be closed.",
        {"index": _INDEX},
        [],
    ),
]
BROWSER_NAMES = [t.name for t in BROWSER_TOOLS]
_SCHEMAS = {t.name: t.input_schema for t in BROWSER_TOOLS}


def browser_instructions(browser: McpBrowser) -> str:
    cfg = browser.config
    return "\n".join(
        [
            "One browser stays open for the whole session. Start a task with start_task(task, url) "
            "(or just navigate(url)); each task gets its own run folder. Look with `observe` (the "
            "screenshot) or `page_snapshot` (the accessibility tree with refs), act with one action "
            "tool per step; each returns what actually happened. `finished` ends the task, not the "
            "browser: start the next one afterwards.",
            f"Targets are a `ref` from the latest page_snapshot, or a point: {point_words(cfg)}.",
            f"Budget per task: at most {cfg.max_steps} action calls and {int(cfg.max_seconds)} seconds.",
        ]
    )


def _tabs(h: Harness) -> list[Page]:
    return [p for p in h.page.context.pages if not p.is_closed()]


async def _tab_list(h: Harness, said: str = "") -> types.CallToolResult:
    rows = []
    for i, p in enumerate(_tabs(h)):
        try:
            title = await p.title()
        except Exception:  # noqa: BLE001 - a tab still loading has no title yet
            title = ""
        rows.append({"index": i, "url": p.url, "title": title, "current": p is h.page})
    lines = [
        f"{'*' if r['current'] else ' '} {r['index']}: {r['title'] or '(untitled)'} — {r['url']}"
        for r in rows
    ]
    text = (said + "\n" if said else "") + "Tabs (* current):\n" + "\n".join(lines)
    return text_result(text, data={"tabs": rows})


def _refused(h: Harness, url: str) -> str | None:
    """Why `url` will not be opened in this task, or None."""
    if urlsplit(url).scheme not in ("http", "https"):
        return f"only http(s) addresses are opened, not {url[:60]!r}"
    return h.guard.policy.check(url) if h.guard is not None else None


async def _open(h: Harness, url: str) -> None:
    await h.goto(url)
    h.last = None  # the next step observes the page it is on now


def build_browser_server(browser: McpBrowser) -> Server[dict[str, Any]]:
    """The MCP server of the long-lived browser: the browser tools, `observe`, the action tools."""
    cfg = browser.config
    mode = get_mode(cfg.observation)
    specs = catalog.offered(cfg, snapshot=mode.snapshot, refs=mode.refs, points=mode.points)
    tools = BROWSER_TOOLS + [types.Tool.model_validate(t) for t in tool_list(specs, cfg)]
    answering: list[TaskTools] = []  # the open task's answers (one task at a time)

    def tools_of(task: McpTask) -> TaskTools:
        if not answering or answering[0].task is not task:
            answering[:] = [TaskTools(task, task.harness.specs if task.harness is not None else specs)]
        return answering[0]

    async def start_task(instruction: str, url: str) -> types.CallToolResult:
        if urlsplit(url).scheme not in ("http", "https"):
            return text_result(
                f"Not started: only http(s) addresses are opened, not {url[:60]!r}.", error=True
            )
        try:
            task = await browser.start_task(instruction, url)
        except Exception as e:  # noqa: BLE001 - a failed start is closed with its reason
            return text_result(f"The task could not start: {first_line(e) or type(e).__name__}.", error=True)
        page_url = task.harness.page.url if task.harness is not None else url
        data = {"task_id": task.task.task_id, "folder": str(task.dir), "url": page_url}
        return text_result(
            f"Task {task.task.task_id} started; folder {task.dir}.\nURL: {page_url}", data=data
        )

    async def on_page(task: McpTask, name: str, args: dict[str, Any]) -> types.CallToolResult:
        if name == "page_snapshot":
            obs = await task.observe()
            text = obs.snapshot or "(no snapshot: the page gave none; use observe)"
            return text_result(f"URL: {obs.url}\n{text}", data={"url": obs.url, "step": task.steps})
        async with task.holding() as h:
            if name == "navigate":
                if (why := _refused(h, args["url"])) is not None:
                    return text_result(f"Not opened: {why}.", error=True)
                await _open(h, args["url"])
                return text_result(f"URL: {h.page.url}", data={"url": h.page.url})
            if name == "tabs":
                return await _tab_list(h)
            if name == "tab_open":
                url = args.get("url")
                if url and (why := _refused(h, url)) is not None:
                    return text_result(f"Not opened: {why}.", error=True)
                page = await h.page.context.new_page()
                await page.set_viewport_size({"width": cfg.viewport_width, "height": cfg.viewport_height})
                await h.show_tab(page)
                if url:
                    await _open(h, url)
                h.last = None
                return await _tab_list(h, "Opened a tab; it is current.")
            tabs = _tabs(h)
            index = args.get("index", tabs.index(h.page) if h.page in tabs else len(tabs) - 1)
            if not 0 <= index < len(tabs):
                return text_result(f"No tab {index}: there are {len(tabs)} (0-{len(tabs) - 1}).", error=True)
            if name == "tab_select":
                await h.show_tab(tabs[index])
                await tabs[index].bring_to_front()
                h.last = None
                return await _tab_list(h, f"Tab {index} is current.")
            if len(tabs) == 1:
                return text_result(
                    "The task's last tab cannot be closed; call finished to end the task.", error=True
                )
            closing = tabs[index]
            rest = [p for p in tabs if p is not closing]
            if closing is h.page:
                await h.show_tab(rest[-1])
                h.last = None
            await closing.close()
            return await _tab_list(h, f"Closed tab {index}.")

    async def answer(name: str, args: dict[str, Any]) -> types.CallToolResult:
        if name in _SCHEMAS:
            try:
                jsonschema.validate(args, _SCHEMAS[name])
            except jsonschema.ValidationError as e:
                return text_result(f"{name}: {e.message}.", error=True)
        if name == "start_task":
            return await start_task(str(args.get("task", "")), str(args.get("url", "")))
        task = browser.open_task
        if task is None:
            if name == "navigate" and isinstance(args.get("url"), str):
                return await start_task(BROWSING, args["url"])
            ended = f" {browser.task.closed_note()}" if browser.task is not None else ""
            return text_result(NO_TASK + ended, error=True)
        if name in BROWSER_NAMES:
            try:
                return await on_page(task, name, args)
            except (TaskClosed, ObserveFailed) as e:
                return text_result(str(e), error=True)
            except Exception as e:  # noqa: BLE001 - a navigation that failed: the task goes on
                return text_result(f"{name} failed: {first_line(e) or type(e).__name__}", error=True)
        return await tools_of(task).answer(name, args, *BROWSER_NAMES)

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return scrubbed(await answer(params.name, dict(params.arguments or {})))

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=browser_instructions(browser),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


__all__ = ["BROWSER_NAMES", "BROWSER_TOOLS", "build_browser_server"]
