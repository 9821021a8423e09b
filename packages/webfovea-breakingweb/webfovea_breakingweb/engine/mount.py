"""How the server mounts an app and renders its page, whichever kind it is (engine/spec.py).

A generic-SPA app (`SpaApp`) gets the engine's JSON API (api.py) and the generic page (spa.py);
an app with its own workflow mounts its own `routes` and renders its own `page`. Every app
gets `POST /api/<app>/login`, the sign-in after a session expiry.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI

from webfovea_breakingweb.engine.api import register_app
from webfovea_breakingweb.engine.spa import app_page, key_figures_html, notices_html
from webfovea_breakingweb.engine.spec import AppSpec, SpaApp
from webfovea_breakingweb.engine.store import mount_login
from webfovea_proving_ground.sessions import Session, SessionStore

# Where an app's own page shows errors and toasts (with or without attributes such as aria-live).
STATUS = re.compile(r'<div id="wf-status"[^>]*></div>')


def mount(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    if isinstance(app, SpaApp):
        register_app(app, main, store)
    elif app.routes is not None:
        app.routes(app, main, store)
    mount_login(app, main, store)


def render(app: AppSpec, session: Session | None, client_plan: dict[str, Any] | None) -> str:
    """The app's page; the session's notices (BaseState.notices) and, on an app's own page, its
    key figures (BaseState.key_figures) shown above the app — just before its `#wf-status`
    area — so seed-layer notices and planted figures reach every app."""
    owned = session is not None and session.extra.get("app") == app.name and session.state is not None
    notices = session.state.notices if owned else []  # type: ignore[union-attr]
    figures = session.state.key_figures if owned and hasattr(session.state, "key_figures") else []  # type: ignore[union-attr]
    if isinstance(app, SpaApp):
        return _served(app_page(app, client_plan, notices), session if owned else None)
    if app.page is None:
        raise ValueError(f"app {app.name} declares no page")
    html = app.page(app, session, client_plan)
    above = notices_html(notices) + key_figures_html(figures)
    html = STATUS.sub(lambda m: above + m.group(0), html, count=1) if above else html
    return _served(html, session if owned else None)


def _served(html: str, session: Session | None) -> str:
    """The page as this session's server serves it: a server-layer family's style sheet, set
    once when the session was made (server/hidden_labels), goes into its head."""
    css = session.extra.get("server_css") if session is not None else None
    if not css:
        return html
    return html.replace("</head>", f'<style id="wf-served">{css}</style></head>', 1)
