"""The MCP server: the tool list from the action specs, each call through the task's harness.

Built on the official SDK's low-level `Server` (mcp 2.x), not its decorator API, because
the tools and their input schemas are generated from the specs (`tools.py`) rather than
from Python signatures. Transports: stdio (one client, one task; the task closes when the
client disconnects) and streamable HTTP on loopback (one task per server process; it
closes on `finished`, when a handshake-era client ends its MCP session with DELETE, or when
the server stops; a 2026-07-28 client has no session to end).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import secrets
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from webfovea.config import Component
from webfovea.guardrails.constraints import HARD_CONSTRAINTS
from webfovea.harness import StepResult
from webfovea.mcp.task_session import McpTask, ObserveFailed, TaskClosed
from webfovea.mcp.tools import OBSERVE, ToolArgumentError, check_arguments, point_words, tool_list
from webfovea.models.base import ToolCall
from webfovea.models.messages import png_base64
from webfovea.observation.prompt import secrets_lines
from webfovea.secrets import scrub_data, scrub_text

if TYPE_CHECKING:  # the SDK's HTTP app is a Starlette app; its ASGI types are only annotations here
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


def _text(text: str, *, error: bool = False, data: dict[str, Any] | None = None) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=text)], is_error=error, structured_content=data
    )


def _scrubbed(result: types.CallToolResult) -> types.CallToolResult:
    """What the client is told, with every secret value replaced by its placeholder: the client
    is the model here, and the model never sees a value (webfovea/secrets.py)."""
    for c in result.content:
        if isinstance(c, types.TextContent):
            c.text = scrub_text(c.text)
    if result.structured_content is not None:
        result.structured_content = scrub_data(result.structured_content)
    return result


def _step_data(task: McpTask, res: StepResult) -> dict[str, Any]:
    return {
        "step": task.steps,
        "outcome": res.outcome,
        "done": task.closed,
        "status": task.result.status if task.closed else "running",
        "answer": task.result.answer if task.closed else None,
    }


def _step_text(task: McpTask, res: StepResult, url: str | None) -> str:
    """The harness's feedback note (it writes one when something needs saying: nothing changed,
    a read-back, a refusal), the page's URL, and how the task ended if it did."""
    text = res.feedback or (res.error or "Done.")
    if url and not task.closed:
        text += f"\nURL: {url}"
    if task.closed:
        text += "\n" + task.closed_note()
    return text


def build_server(task: McpTask) -> Server[dict[str, Any]]:
    """An MCP server whose tools drive `task`; the specs come from the task's harness."""
    assert task.harness is not None, "start the task before building its server"
    specs = task.harness.specs
    by_name = {s.name: s for s in specs}
    tools = [types.Tool.model_validate(t) for t in tool_list(specs, task.config)]

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def observe() -> types.CallToolResult:
        obs = await task.observe()
        # The encoding the model clients send (PNG), off the event loop: other calls keep moving.
        png = await asyncio.to_thread(png_base64, obs.image)
        h = task.harness
        w, h_px = obs.image.size
        note = (h.last_feedback if h is not None else None) or (
            "(no action yet)" if task.steps == 0 else "(nothing to report: it ran and the page reacted)"
        )
        text = (
            f"URL: {obs.url}\nStep: {task.steps} of at most {task.config.max_steps}\n"
            f"Image: {w}x{h_px} px; points are {point_words(task.config)}.\nLast action: {note}"
        )
        data = {
            "url": obs.url,
            "step": task.steps,
            "image_width": w,
            "image_height": h_px,
            "coordinates": task.config.coordinate_convention,
        }
        return types.CallToolResult(
            content=[types.ImageContent(data=png, mime_type="image/png"), types.TextContent(text=text)],
            structured_content=data,
        )

    async def step_result(res: StepResult, *, error: bool) -> types.CallToolResult:
        url = task.harness.page.url if task.harness is not None and not task.closed else None
        out = _text(_step_text(task, res, url), error=error, data=_step_data(task, res))
        attached = res.executed.outcome.response.attachments if res.executed is not None else []
        for a in attached:  # zoom's crop (any attachment) is the call's result, as a computer-tool zoom's is
            png = await asyncio.to_thread(png_base64, a.image)
            out.content.append(types.ImageContent(data=png, mime_type="image/png"))
        return out

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return _scrubbed(await answer(params))

    async def answer(params: types.CallToolRequestParams) -> types.CallToolResult:
        name, args = params.name, params.arguments
        try:
            if name == OBSERVE:
                return await observe()
            spec = by_name.get(name)
            as_written = (
                f"Action: {name}({json.dumps(args or {}, ensure_ascii=False)})"  # recorded as raw_reply
            )
            if spec is None:
                offered = ", ".join([OBSERVE, *by_name])
                res = await task.reject(as_written, f"Unknown tool `{name}`. Tools: {offered}.")
                return await step_result(res, error=True)
            try:
                checked = check_arguments(spec, args, task.config)
            except ToolArgumentError as e:
                res = await task.reject(as_written, str(e))
                return await step_result(res, error=True)
            res = await task.act(ToolCall(f"mcp-{task.steps}", name, checked))
            failed = res.outcome in ("failed", "rejected") or (res.error is not None and not res.done)
            return await step_result(res, error=failed)
        except TaskClosed as e:
            return _text(str(e), error=True, data={"done": True, "status": task.result.status})
        except ObserveFailed as e:
            return _text(str(e), error=True)

    return Server(
        SERVER_NAME, instructions=instructions(task), on_list_tools=list_tools, on_call_tool=call_tool
    )


async def serve_stdio(task: McpTask) -> None:
    """Serve one client over stdin/stdout until it disconnects; the task closes then at the latest."""
    main = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if main is not None:  # SIGTERM (the client's shutdown) must still write result.json
        loop.add_signal_handler(signal.SIGTERM, main.cancel)
    try:
        async with stdio_server() as (read, write):
            # Started inside: the SDK points fd 1 at stderr while it serves, so neither the
            # Playwright driver nor Chromium inherit the protocol's stdout.
            await task.start()
            server = build_server(task)
            await server.run(read, write, server.create_initialization_options())
        await task.close("interrupted", DISCONNECTED)
    finally:
        await asyncio.shield(task.close("interrupted", STOPPED))
        loop.remove_signal_handler(signal.SIGTERM)


def _closing_on_delete(app: ASGIApp, task: McpTask, path: str) -> ASGIApp:
    """The ASGI app, closing the task when a client ends its MCP session (HTTP DELETE, the
    handshake-era session end). result.json is written before the client sees the answer."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope.get("type") == "http" and scope.get("method") == "DELETE" and scope.get("path") == path
        ):
            await app(scope, receive, send)
            return

        async def closing_send(message: Message) -> None:
            if message.get("type") == "http.response.start" and 200 <= int(message.get("status", 500)) < 300:
                await task.close("interrupted", DISCONNECTED)
            await send(message)

        await app(scope, receive, closing_send)

    return wrapped


TOKEN_ENV = "WEBFOVEA_MCP_TOKEN"  # the bearer token a client must send (default: a fresh one)
TOKEN_FILE = ".mcp_token"  # in the task folder while the server runs, owner-only


class StaticToken:
    """The SDK's TokenVerifier for the one bearer token of this server (compared in constant time)."""

    def __init__(self, token: str) -> None:
        self.token = token

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self.token.encode()):
            return AccessToken(token=token, client_id="webfovea-mcp", scopes=[])
        return None


def http_token(given: str | None = None) -> str:
    """The bearer token: the one given (or $WEBFOVEA_MCP_TOKEN), else 32 random bytes."""
    token = given or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(32)
    if len(token) < 16:
        raise ValueError("the MCP token must be at least 16 characters")
    return token


def write_token_file(path: Path, token: str, *, replace: bool = False) -> Path:
    """The token where a local client can read it and nobody else (mode 0600 from creation).

    Created exclusively: a file already at a path the user chose is refused, never clobbered
    (`replace`: the task folder's own token file, which only the harness writes)."""
    if replace:
        path.unlink(missing_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        raise ValueError(f"--token-file {path} already exists: remove it or choose a new path") from None
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    return path


def http_app(task: McpTask, host: str, port: int, token: str) -> ASGIApp:
    """The streamable HTTP app: every request needs `Authorization: Bearer TOKEN` (401
    without it), through the SDK's own bearer middleware."""
    server = build_server(task)
    url = f"http://{host}:{port}"
    app = server.streamable_http_app(
        host=host,
        auth=AuthSettings(issuer_url=url, resource_server_url=None),
        token_verifier=StaticToken(token),
    )
    return _closing_on_delete(app, task, "/mcp")


async def serve_http(  # noqa: PLR0913 - the transport's settings, each a CLI option
    task: McpTask,
    port: int,
    host: str = "127.0.0.1",
    ready: Callable[[str, Path], object] | None = None,
    token: str | None = None,
    token_file: Path | None = None,
) -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until stopped (Ctrl-C / SIGTERM).

    Clients must send the bearer token (`token`, else $WEBFOVEA_MCP_TOKEN, else generated):
    it is written owner-only to `token_file` (default: .mcp_token in the task folder, removed
    when the server stops) and passed to `ready(url, token_path)`."""
    import uvicorn

    class Web(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn re-raises a captured SIGTERM once it has shut down, which would kill the
            # process before result.json is written; stop it the same way, then return.
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, setattr, self, "should_exit", True)
            try:
                yield
            finally:
                for sig in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(sig)

    path = token_file or task.dir / TOKEN_FILE
    try:
        secret = http_token(token)
        write_token_file(path, secret, replace=token_file is None)
        await task.start()
        app = http_app(task, host, port, secret)
        web = Web(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on"))
        if ready is not None:
            ready(f"http://{host}:{port}/mcp", path)
        await web.serve()
    finally:
        await asyncio.shield(task.close("interrupted", STOPPED))
        if token_file is None:
            path.unlink(missing_ok=True)
