"""Network-layer interventions: one pure-ASGI middleware in front of every stateful app.

For a request of a session whose variant is a network family, it matches (method, path)
against the rule's route, counts the match under a lock (the per-(session, rule) ordinal),
asks the family for an Effect and applies it: answer with a status instead of the app,
delay, or forge (the app answers on the real state, the state is then put back). An expired
session (session expiry) gets 401 on every API call but the sign-in. Every firing goes to
the session's audit log, without times, so equal agent behaviour gives equal logs.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from typing import Any

from webfovea.proving_ground.breakingweb.interventions.base import Effect, Family
from webfovea.proving_ground.sessions import Session, SessionStore, cookie_in_headers


def _route_matches(route: list[str] | None, method: str, path: str) -> bool:
    return bool(route) and route[0] == method and re.fullmatch(route[1], path) is not None


async def _answer(send: Any, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
    raw = json.dumps(body).encode()
    hdrs = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    hdrs += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": hdrs})
    await send({"type": "http.response.body", "body": raw})


class InterventionMiddleware:
    def __init__(self, app: Any, store: SessionStore) -> None:
        self.app = app
        self.store = store
        self._lock = threading.Lock()

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
        if rule is None or not _route_matches(iv["routes"].get(rule.target), method, path):
            await self.app(scope, receive, send)
            return
        ordinal = self._ordinal(session, fam.name)
        effect: Effect | None = rule.decide(ordinal, session, iv["rng"])
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
            await _answer(send, effect.status, effect.body or {}, effect.headers)
            return
        if effect.forge:
            saved = session.state.model_copy(deep=True)
            try:
                await self.app(scope, receive, send)
            finally:
                session.state = saved  # the real success body went out; nothing was stored
            return
        await self.app(scope, receive, send)
