"""Streamable HTTP for the MCP server: loopback only, one bearer token, a plain 401.

Every request must carry `Authorization: Bearer TOKEN`. A request without it is answered
401 here, before the SDK, with a body and a `WWW-Authenticate` header that name the header
to send and where the token is — and nothing that advertises OAuth (no `resource_metadata`,
no `/.well-known/oauth-*` documents, no `/register` or `/authorize`: every path but
`/mcp` is a 404 saying what to send): an OAuth-capable client such as the MCP Inspector
must not be sent into an authorization flow this server does not have. The SDK's own bearer
middleware (`TokenVerifier`) stays behind it as the second check.
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

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server

from webfovea.mcp.server import DISCONNECTED, STOPPED, Served, server_for

if TYPE_CHECKING:  # the SDK's HTTP app is a Starlette app; its ASGI types are only annotations here
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_ENV = "WEBFOVEA_MCP_TOKEN"  # the bearer token a client must send (default: a fresh one)
TOKEN_FILE = ".mcp_token"  # in the task folder while the server runs, owner-only
HEADER = "Authorization: Bearer <token>"


def _closing_on_delete(app: ASGIApp, task: Served, path: str) -> ASGIApp:
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


def auth_note(token_path: Path | None) -> str:
    where = f"; the token is in {token_path}" if token_path is not None else ""
    return f"send the header '{HEADER}'{where} (or ${TOKEN_ENV} when the server was given one). No OAuth."


async def _answer(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> None:
    raw = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(raw)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": raw})


def plain_401(app: ASGIApp, token: str, token_path: Path | None, path: str = "/mcp") -> ASGIApp:
    """Refuse a request to `path` without the bearer token with a 401 that says what to send;
    any other path is a 404 that says the same."""
    expected = token.encode()
    note = auth_note(token_path)
    quoted = note.replace("\\", "\\\\").replace('"', "'")
    challenge = f'Bearer realm="webfovea-mcp", error="invalid_token", error_description="{quoted}"'

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        if str(scope.get("path", "")).rstrip("/") != path:
            # Nothing but the endpoint: an OAuth client's discovery (/.well-known/…), its default
            # /register and /authorize find a 404 that says what to send instead.
            await _answer(send, 404, {"error": "not_found", "error_description": note}, [])
            return
        got = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, given = got.partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(given.strip(), expected):
            body = {"error": "invalid_token", "error_description": f"Authentication required: {note}"}
            await _answer(send, 401, body, [(b"www-authenticate", challenge.encode())])
            return
        await app(scope, receive, send)

    return wrapped


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


def http_app(  # noqa: PLR0913 - the app's parts
    server: Server[dict[str, Any]],
    task: Served,
    host: str,
    token: str,
    token_path: Path | None = None,
    *,
    close_on_delete: bool = True,
) -> ASGIApp:
    """The streamable HTTP app: every request needs `Authorization: Bearer TOKEN` (a plain 401
    naming the header without it), checked again by the SDK's own bearer middleware."""
    app: ASGIApp = server.streamable_http_app(
        host=host,
        auth=AuthSettings(issuer_url=f"http://{host}", resource_server_url=None),
        token_verifier=StaticToken(token),
    )
    if close_on_delete:
        app = _closing_on_delete(app, task, "/mcp")
    return plain_401(app, token, token_path)


async def serve_http(  # noqa: PLR0913 - the transport's settings, each a CLI option
    task: Served,
    port: int,
    host: str = "127.0.0.1",
    ready: Callable[[str, Path], object] | None = None,
    token: str | None = None,
    token_file: Path | None = None,
    build: Callable[[], Server[dict[str, Any]]] | None = None,
) -> None:
    """Serve streamable HTTP at http://HOST:PORT/mcp until stopped (Ctrl-C / SIGTERM).

    Clients must send the bearer token (`token`, else $WEBFOVEA_MCP_TOKEN, else generated):
    it is written owner-only to `token_file` (default: .mcp_token in the task folder, removed
    when the server stops) and passed to `ready(url, token_path)`. `build`: the server once
    `task` has started (the long-lived browser's; its tasks do not end on DELETE)."""
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
        server = server_for(task, build)
        app = http_app(server, task, host, secret, path, close_on_delete=build is None)
        web = Web(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on"))
        if ready is not None:
            ready(f"http://{host}:{port}/mcp", path)
        await web.serve()
    finally:
        await asyncio.shield(task.close("interrupted", STOPPED))
        if token_file is None:
            path.unlink(missing_ok=True)
