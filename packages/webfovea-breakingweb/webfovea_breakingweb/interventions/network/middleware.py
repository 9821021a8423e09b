"""Network-layer interventions: one pure-ASGI middleware in front of every stateful app.

For a request of a session whose variant is a network family, it matches (method, path)
against the rule's route, counts the match under a lock (the per-(session, rule) ordinal),
asks the family for an Effect and applies it: answer with a status instead of the app,
delay, forge (the app answers on the real state, the state is then put back), or call the app
and change what goes back (`transform` its JSON answer, `keep` it for a later stale replay,
or answer `raw` bytes). A rule may watch several of the task's routes (`targets`: main,
write, list); the ordinal counts per (session, family, route). An expired
session (session expiry) gets 401 on every API call but the sign-in. Every firing goes to
the session's audit log, without times, so equal agent behaviour gives equal logs.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from typing import Any

from webfovea_breakingweb.interventions.base import Effect, Family
from webfovea_proving_ground.sessions import Session, SessionStore, cookie_in_headers


def _route_matches(route: list[str] | None, method: str, path: str) -> bool:
    return bool(route) and route[0] == method and re.fullmatch(route[1], path) is not None


async def _answer(
    send: Any, status: int, body: Any, headers: dict[str, str], raw: bytes | None = None
) -> None:
    raw = json.dumps(body).encode() if raw is None else raw
    hdrs = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    hdrs += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": hdrs})
    await send({"type": "http.response.body", "body": raw})


class InterventionMiddleware:
    def __init__(self, app: Any, store: SessionStore) -> None:
        self.app = app
        self.store = store
        self._lock = threading.Lock()

    async def _buffered(self, scope: dict[str, Any], receive: Any) -> tuple[int, list[Any], bytes]:
        """Call the app and keep its answer (status, headers, body) instead of sending it."""
        status, headers, chunks = 500, [], []

        async def keep(message: dict[str, Any]) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status, headers = message["status"], list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, keep)
        return status, headers, b"".join(chunks)

    async def _rewritten(
        self, scope: dict[str, Any], receive: Any, send: Any, session: Session, effect: Effect
    ) -> None:
        """The app's answer, kept (`keep`) and/or rewritten (`transform`) before it goes back."""
        status, headers, body = await self._buffered(scope, receive)
        try:
            data = json.loads(body or b"null")
        except ValueError:
            data = None
        if effect.keep and status < 400:
            session.extra.setdefault("kept", {})[effect.keep] = data
        if effect.transform is not None and status < 400 and data is not None:
            body = json.dumps(effect.transform(data)).encode()
        hdrs = [(k, v) for k, v in headers if k.lower() != b"content-length"]
        hdrs.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": hdrs})
        await send({"type": "http.response.body", "body": body})

    def _ordinal(self, session: Session, rule: str) -> int:
        with self._lock:
            counts = session.extra.setdefault("ordinals", {})
            counts[rule] = counts.get(rule, 0) + 1
            return counts[rule]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        session = self.store.get(cookie_in_headers(scope.get("headers", [])))
        iv = session.extra.get("iv") if session is not None else None
        if session is None or iv is None:
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        if session.extra.get("expired") and not path.endswith("/login"):
            session.audit.append(
                {
                    "layer": "network",
                    "family": iv["family"].name,
                    "event": "refused_expired",
                    "method": method,
                    "path": path,
                }
            )
            await _answer(
                send,
                401,
                {"ok": False, "expired": True, "error": "Your session has expired. Please sign in again."},
                {},
            )
            return
        fam: Family = iv["family"]
        rule = fam.network
        target = (
            None
            if rule is None
            else next((t for t in rule.targets if _route_matches(iv["routes"].get(t), method, path)), None)
        )
        if rule is None or target is None:
            await self.app(scope, receive, send)
            return
        # One route: the family's own count (as before several routes could be watched).
        ordinal = self._ordinal(session, fam.name if len(rule.targets) == 1 else f"{fam.name}|{target}")
        effect: Effect | None = rule.decide(ordinal, session, iv["rng"], target)
        if effect is None:
            await self.app(scope, receive, send)
            return
        session.audit.append(
            {
                "layer": "network",
                "family": fam.name,
                "event": "fired",
                "ordinal": ordinal,
                "method": method,
                "path": path,
                "status": effect.status,
                "delay_ms": effect.delay_ms,
                "forge": effect.forge,
                "note": effect.note,
            }
        )
        if effect.delay_ms:
            await asyncio.sleep(effect.delay_ms / 1000)
        if effect.status is not None:
            await _answer(send, effect.status, effect.body or {}, effect.headers, effect.raw)
            return
        if effect.transform is not None or effect.keep:
            await self._rewritten(scope, receive, send, session, effect)
            return
        if effect.forge:
            saved = session.state.model_copy(deep=True)
            try:
                await self.app(scope, receive, send)
            finally:
                session.state = saved  # the real success body went out; nothing was stored
            return
        await self.app(scope, receive, send)
