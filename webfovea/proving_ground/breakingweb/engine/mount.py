"""How the server mounts an app and renders its page, whichever kind it is (engine/spec.py).

A generic-SPA app (`SpaApp`) gets the engine's JSON API (api.py) and the generic page (spa.py);
an app with its own workflow mounts its own `routes` and renders its own `page`. Every app
gets `POST /api/<app>/login`, the sign-in after a session expiry.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from webfovea.proving_ground.breakingweb.engine.api import register_app
from webfovea.proving_ground.breakingweb.engine.spa import app_page
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec, SpaApp
from webfovea.proving_ground.breakingweb.engine.store import mount_login
from webfovea.proving_ground.sessions import Session, SessionStore


def mount(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    if isinstance(app, SpaApp):
        register_app(app, main, store)
    elif app.routes is not None:
        app.routes(app, main, store)
    mount_login(app, main, store)


def render(app: AppSpec, session: Session | None, client_plan: dict[str, Any] | None) -> str:
    if isinstance(app, SpaApp):
        return app_page(app, client_plan)
    if app.page is None:
        raise ValueError(f"app {app.name} declares no page")
    return app.page(app, session, client_plan)
