"""Server-side browser sessions of the proving ground, and the control plane that makes them.

Ground truth must not come from the harness's own capture (a capture bug would then be
invisible), so the sites themselves keep, per browser session, the log of every request they
answered. A session is made by the runner through `/_control/sessions` (a per-process secret
in the `X-Webfovea-Control` header; the model's browser never has it) and bound to the
browser with the `wf_session` cookie before the first navigation.

Stateful apps hang their state on a session (`Session.state`, `SessionStore.on_create`);
interventions write their firings to `Session.audit`. An id names its task, seed and variant
(hashed, for reading logs) but is unguessable: 128 random bits follow, so knowing the public
task id, seed and counter never opens another session's records. What a session holds stays
reproducible (the seed decides its state); only its name is random.

One session per request: a request carrying two different `wf_session` cookies belongs to no
session (every reader — the sites, the middleware, the control plane — parses the cookie the
same way), so a write can never land in one session while its request is logged in another.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from webfovea.browser.binding import CONTROL_HEADER, SECRET_ENV
from webfovea.tls import tls_context

SESSION_COOKIE = "wf_session"
CONTROL_PREFIX = "/_control"
_MAX_BODY = 64 * 1024  # bodies above this are logged as their size only

log = logging.getLogger("webfovea.sites.control")


@dataclass
class Session:
    session_id: str
    task_id: str
    seed: int
    variant: str | None
    requests: list[dict[str, Any]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    state: Any = None  # a stateful app's typed state
    extra: dict[str, Any] = field(default_factory=dict)  # per-app data (initial state, counters)

    def public(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "task_id": self.task_id,
            "seed": self.seed,
            "variant": self.variant,
        }


def process_secret() -> str:
    """The control secret of this process and the workers it starts (they inherit it).

    One per process rather than per server: a runner may start several proving grounds, and
    its workers read the secret from the environment (browser.binding). Never in a task file.
    """
    return os.environ.setdefault(SECRET_ENV, secrets.token_urlsafe(24))


class SessionStore:
    """Every session of one server process. Thread-safe: uvicorn threads share it."""

    def __init__(self, secret: str | None = None) -> None:
        self.secret = secret or process_secret()
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._counter = 0
        # Called with each new session (stateful apps build its initial state here).
        self.on_create: list[Callable[[Session], None]] = []

    def create(self, task_id: str, seed: int = 0, variant: str | None = None) -> Session:
        digest = hashlib.sha256(f"{task_id}|{seed}|{variant}".encode()).hexdigest()[:10]
        with self._lock:
            self._counter += 1
            sid = f"ws-{digest}-{self._counter}-{secrets.token_hex(16)}"
            session = Session(sid, task_id, seed, variant)
            self._sessions[sid] = session
        for hook in self.on_create:
            hook(session)
        return session

    def get(self, session_id: str | None) -> Session | None:
        if not session_id:
            return None
        with self._lock:
            return self._sessions.get(session_id)

    def delete(self, session_id: str) -> bool:
        with self._lock:
            return self._sessions.pop(session_id, None) is not None

    def log_request(self, session: Session, entry: dict[str, Any]) -> None:
        with self._lock:
            entry["ordinal"] = len(session.requests)
            session.requests.append(entry)

    def check(self, header: str | None) -> bool:
        return header is not None and secrets.compare_digest(header, self.secret)


def session_of(request: Request, store: SessionStore) -> Session | None:
    """The session the browser's cookie names, or None (no cookie, or two that differ)."""
    return store.get(cookie_in_headers(request.scope.get("headers") or []))


def cookie_in_headers(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The session cookie of an ASGI scope's raw headers, read the one way every part reads it:
    None when absent, and None when the request carries different `wf_session` values (in one
    Cookie header or several) — an ambiguous request belongs to no session."""
    found: set[str] = set()
    for name, value in headers:
        if name.lower() == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k.strip() == SESSION_COOKIE:
                    found.add(v.strip().strip('"'))
    return found.pop() if len(found) == 1 else None


def _parse_body(raw: bytes, content_type: str) -> Any:
    if not raw:
        return None
    if len(raw) > _MAX_BODY:
        return {"_bytes": len(raw)}
    text = raw.decode("utf-8", "replace")
    if "json" in content_type:
        try:
            return json.loads(text)
        except ValueError:
            return text
    if "x-www-form-urlencoded" in content_type:
        return {k: v if len(v) > 1 else v[0] for k, v in parse_qs(text, keep_blank_values=True).items()}
    return text


class SessionLogMiddleware:
    """Pure ASGI: logs each HTTP request that carries a known session cookie into its session."""

    def __init__(self, app: Any, store: SessionStore, origin: str) -> None:
        self.app = app
        self.store = store
        self.origin = origin

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].startswith(CONTROL_PREFIX):
            await self.app(scope, receive, send)
            return
        session = self.store.get(cookie_in_headers(scope.get("headers", [])))
        if session is None:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        status: list[int] = []

        async def receive_logged() -> dict[str, Any]:
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
            return message

        async def send_logged(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive_logged, send_logged)
        finally:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
            self.store.log_request(
                session,
                {
                    "origin": self.origin,
                    "method": scope["method"],
                    "path": scope["path"],
                    "query": {k: v if len(v) > 1 else v[0] for k, v in query.items()},
                    "body": _parse_body(b"".join(chunks), headers.get("content-type", "")),
                    "status": status[0] if status else None,
                    "fetch": headers.get("sec-fetch-dest") == "empty",  # XHR/fetch, not a document
                },
            )


def refuse(request: Request, store: SessionStore) -> JSONResponse | None:
    """None when the control call carries the secret; else the 403 to send (and a log line)."""
    if store.check(request.headers.get(CONTROL_HEADER)):
        return None
    log.warning("control call without the secret refused: %s %s", request.method, request.url.path)
    return JSONResponse({"error": f"the {CONTROL_HEADER} header is missing or wrong"}, status_code=403)


def install(app: FastAPI, frame: FastAPI, store: SessionStore, main_url: str, frame_url: str) -> None:
    """The control routes on the main app and the request log on both."""

    def guard(request: Request) -> JSONResponse | None:
        return refuse(request, store)

    @app.post(CONTROL_PREFIX + "/sessions")
    async def create(request: Request) -> JSONResponse:
        if (refused := guard(request)) is not None:
            return refused
        try:
            body = await request.json()
            task_id, seed, variant = str(body["task_id"]), int(body.get("seed", 0)), body.get("variant")
        except (ValueError, KeyError, TypeError) as e:
            return JSONResponse({"error": f"expected JSON {{task_id, seed, variant}}: {e}"}, status_code=422)
        try:
            session = store.create(task_id, seed, variant)
        except ValueError as e:  # an app refused the variant (unknown family, plan not applicable)
            return JSONResponse({"error": str(e)}, status_code=422)
        return JSONResponse(
            {
                **session.public(),
                **session.extra.get("public", {}),
                "cookie": {"name": SESSION_COOKIE, "value": session.session_id},
            }
        )

    @app.get(CONTROL_PREFIX + "/sessions/{session_id}/requests")
    def requests(session_id: str, request: Request) -> JSONResponse:
        if (refused := guard(request)) is not None:
            return refused
        session = store.get(session_id)
        if session is None:
            return JSONResponse({"error": f"no session {session_id!r}"}, status_code=404)
        return JSONResponse({**session.public(), "requests": list(session.requests)})

    @app.delete(CONTROL_PREFIX + "/sessions/{session_id}")
    def delete(session_id: str, request: Request) -> JSONResponse:
        if (refused := guard(request)) is not None:
            return refused
        return JSONResponse({"deleted": store.delete(session_id)})

    app.add_middleware(SessionLogMiddleware, store=store, origin=main_url)
    frame.add_middleware(SessionLogMiddleware, store=store, origin=frame_url)


class ControlClient:
    """The runner's side of the control plane (synchronous; one short call per task)."""

    def __init__(self, main_url: str, secret: str, timeout_s: float = 10.0) -> None:
        self.base = main_url.rstrip("/") + CONTROL_PREFIX
        self._http = httpx.Client(
            timeout=timeout_s, headers={CONTROL_HEADER: secret}, trust_env=False, verify=tls_context()
        )

    def create(self, task_id: str, seed: int = 0, variant: str | None = None) -> dict[str, Any]:
        r = self._http.post(
            self.base + "/sessions", json={"task_id": task_id, "seed": seed, "variant": variant}
        )
        r.raise_for_status()
        return r.json()

    def requests(self, session_id: str) -> list[dict[str, Any]]:
        r = self._http.get(f"{self.base}/sessions/{session_id}/requests")
        r.raise_for_status()
        return r.json()["requests"]

    def diff(self, session_id: str) -> dict[str, Any]:
        """A stateful session's {initial_sha256, final_sha256, diff, diff_sha256}."""
        return self._get(f"/sessions/{session_id}/diff")

    def audit(self, session_id: str) -> dict[str, Any]:
        """A stateful session's {audit, audit_sha256}: every intervention firing."""
        return self._get(f"/sessions/{session_id}/audit")

    def reset(self, session_id: str) -> dict[str, Any]:
        r = self._http.post(f"{self.base}/sessions/{session_id}/reset")
        r.raise_for_status()
        return r.json()

    def delete(self, session_id: str) -> bool:
        """Forget the session (its state, log and audit); whether it existed."""
        r = self._http.delete(f"{self.base}/sessions/{session_id}")
        r.raise_for_status()
        return bool(r.json().get("deleted"))

    def _get(self, path: str) -> dict[str, Any]:
        r = self._http.get(self.base + path)
        r.raise_for_status()
        return r.json()

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ControlClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
