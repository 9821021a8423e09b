"""The MCP server: the tool list from the action specs, each call through the task's harness.

Built on the official SDK's low-level `Server` (mcp 2.x), not its decorator API, because
the tools and their input schemas are generated from the specs (`tools.py`) rather than
from Python signatures. Transports: stdio here (one client, one task; the task closes when
the client disconnects) and streamable HTTP in `http_serving.py`. The long-lived browser
(`--browser`) builds its own server (`browser_server.py`) and is served the same way.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from webfovea import __version__
from webfovea.config import Component
from webfovea.guardrails.constraints import HARD_CONSTRAINTS
from webfovea.mcp.calls import TaskTools
from webfovea.mcp.task_session import McpTask
from webfovea.mcp.tools import OBSERVE, point_words, tool_list
from webfovea.observation.prompt import secrets_lines
from webfovea.record.schema import Status

SERVER_NAME = "webfovea"
DISCONNECTED = "the MCP client disconnected before calling finished"
STOPPED = "the MCP server was stopped before the client called finished"


def instructions(task: McpTask) -> str:
    """What the server tells the client once: how to look, how to point, the rules."""
    cfg = task.config
    lines = [
        f"A browser is open on {task.task.website}. Call `{OBSERVE}` to see the page, then one action tool "
        "per step; each returns what actually happened. Call `finished` with the answer to end the task.",
        f"Points are {point_words(cfg)}.",
        f"Budget: at most {cfg.max_steps} action calls and {int(cfg.max_seconds)} seconds.",
    ]
    if cfg.secrets:
        lines.append(secrets_lines(cfg).removeprefix("## Secrets\n"))
    if cfg.on(Component.hard_constraints):
        lines += ["Hard constraints:"] + [f"{i}. {c}" for i, c in enumerate(HARD_CONSTRAINTS, 1)]
    return "\n".join(lines)


def build_server(task: McpTask) -> Server[dict[str, Any]]:
    """An MCP server whose tools drive `task`; the specs come from the task's harness."""
    assert task.harness is not None, "start the task before building its server"
    specs = task.harness.specs
    tools = [types.Tool.model_validate(t) for t in tool_list(specs, task.config)]
    answers = TaskTools(task, specs)

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await answers.answer(params.name, params.arguments)

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=instructions(task),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


class Served(Protocol):
    """What a transport serves: one task (`McpTask`) or the long-lived browser (`McpBrowser`)."""

    @property
    def dir(self) -> Path: ...

    async def start(self) -> None: ...

    async def close(self, status: Status, error: str | None = None, answer: str | None = None) -> None: ...


def server_for(served: Served, build: Callable[[], Server[dict[str, Any]]] | None) -> Server[dict[str, Any]]:
    if build is not None:
        return build()
    assert isinstance(served, McpTask), "pass `build` for anything but one task"
    return build_server(served)


async def serve_stdio(task: Served, build: Callable[[], Server[dict[str, Any]]] | None = None) -> None:
    """Serve one client over stdin/stdout until it disconnects; the task closes then at the latest.
    `build`: the server once `task` has started (default: `build_server(task)`)."""
    main = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if main is not None:  # SIGTERM (the client's shutdown) must still write result.json
        loop.add_signal_handler(signal.SIGTERM, main.cancel)
    try:
        async with stdio_server() as (read, write):
            # Started inside: the SDK points fd 1 at stderr while it serves, so neither the
            # Playwright driver nor Chromium inherit the protocol's stdout.
            await task.start()
            server = server_for(task, build)
            await server.run(read, write, server.create_initialization_options())
        await task.close("interrupted", DISCONNECTED)
    finally:
        await asyncio.shield(task.close("interrupted", STOPPED))
        loop.remove_signal_handler(signal.SIGTERM)
