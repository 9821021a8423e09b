"""Stateful apps of the proving ground: session-bound state, a JSON API, a client-side UI.

`register` (called like a site module) adds, for every app: its page and JSON API, the
session hook that builds a task's initial state (and applies the variant's seed/server
interventions), the network-intervention middleware, the client script `/_static/iv.js`,
the client firing log `/_iv/event`, and the control routes diff/audit/reset.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse

from ..interventions.network import InterventionMiddleware
from ..sessions import Session, session_of
from ..sites.context import SiteContext
from .apps import APPS
from .control import register_control
from .engine import register_app
from .session_state import IV_JS, build_session
from .spa import app_page


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    store = ctx.sessions
    store.on_create.append(lambda session: build_session(session, ctx.seed))

    for app in APPS.values():
        register_app(app, main, store)

        def page_route(request: Request, app=app) -> HTMLResponse:  # noqa: ANN001 - bound per app
            session = session_of(request, store)
            plan = _client_plan(session, app.name)
            return HTMLResponse(app_page(app, plan))

        main.add_api_route(app.path, page_route, methods=["GET"], response_class=HTMLResponse)

    @main.get("/_static/iv.js")
    def iv_js() -> PlainTextResponse:
        return PlainTextResponse(IV_JS, media_type="text/javascript")

    @main.post("/_iv/event")
    async def iv_event(request: Request) -> JSONResponse:
        session = session_of(request, store)
        iv = session.extra.get("iv") if session is not None else None
        if iv is None:
            return JSONResponse({"ok": False}, status_code=404)
        try:
            body = await request.json()
        except ValueError:
            body = {}
        event = {k: v for k, v in (body if isinstance(body, dict) else {}).items() if isinstance(v, (str, int))}
        session.audit.append({"layer": "client", "family": iv["family"].name, **event})
        return JSONResponse({"ok": True})

    register_control(main, store)
    main.add_middleware(InterventionMiddleware, store=store)


def _client_plan(session: Session | None, app: str) -> dict | None:
    if session is None or session.extra.get("app") != app:
        return None
    iv = session.extra.get("iv")
    return iv.get("client") if iv else None
