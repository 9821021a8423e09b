"""The stateful apps wired into the proving ground (the one place stateful apps and
interventions meet): `register` adds, for every app, its page and JSON API, the session hook
that builds a task's initial state (and applies the variant's seed/server interventions), the
network-intervention middleware, the client script `/_static/iv.js`, the client firing log
`/_iv/event`, and the control routes diff/audit/reset.

`build_session` looks the task up (a paired copy `ID--variant` is its base task), builds the
app's clean initial state from `rng(task, seed, None, "state")`, applies the variant's seed
and server interventions with `rng(task, seed, variant, family)`, and keeps the result as the
initial snapshot (its sha256 goes back to the runner). Sessions of tasks that are not stateful
get nothing, unless they name a variant: that is refused (422), never ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.control import register_control
from webfovea_breakingweb.engine.determinism import rng, sha256_of
from webfovea_breakingweb.engine.mount import mount, render
from webfovea_breakingweb.engine.page import client_plan
from webfovea_breakingweb.interventions import IvContext, UnknownFamily, family
from webfovea_breakingweb.interventions.network.middleware import InterventionMiddleware
from webfovea_breakingweb.tasks import find_task, initial_state
from webfovea_proving_ground.sessions import Session, session_of
from webfovea_proving_ground.sites.context import SiteContext

IV_JS = (Path(__file__).parent / "interventions" / "iv.js").read_text(encoding="utf-8")
ROUTE_TARGETS = ("main", "write", "list")  # the task's routes a network rule may watch (tasks.py)
# Client firings that change what the session allows next (missing prerequisite: terms accepted).
FLAG_EVENTS = ("terms_accepted",)


def build_session(session: Session, seed: int) -> None:
    task = find_task(seed, session.task_id)
    if task is None:
        if session.variant:
            raise ValueError(
                f"variant {session.variant!r} given for {session.task_id!r}, which is not a stateful task"
            )
        return
    if session.seed != seed:
        raise ValueError(
            f"the sites run with seed {seed}; a session for seed {session.seed} would not match them"
        )
    app = APPS[task.app]
    session.extra["app"] = app.name
    session.state = initial_state(task, seed)
    public: dict[str, Any] = {"family": None}
    if session.variant:
        try:
            fam = family(session.variant)
        except UnknownFamily as e:
            raise ValueError(str(e)) from None
        why = fam.refusal(task, app)
        if why:
            raise ValueError(why)
        ctx = IvContext(
            session, task, app, rng(task.task_id, seed, session.variant, fam.name), fam.name, fam.layer
        )
        if fam.at_create is not None:
            fam.at_create(ctx)
        routes = {k: task.targets[k] for k in ROUTE_TARGETS if k in task.targets}
        session.extra["iv"] = {
            "family": fam,
            "rng": ctx.rng,
            "routes": routes,
            "client": fam.client(ctx) if fam.client else None,
        }
        public["family"] = fam.name
    session.extra["initial"] = session.state.model_copy(deep=True)
    public["initial_sha256"] = sha256_of(session.state)
    session.extra["public"] = public


# A site module of the proving ground, registered by its entry point (`webfovea.sites`). Mounted
# after the other sites, just inside the request log: the interventions' middleware must sit
# inside it, so the log sees what the browser really got.
SITE_NAME = "breakingweb"
MOUNT_LAST = True
SITES = [
    (
        "requests",
        "/app/requests",
        "Stateful: your data requests (create, edit, withdraw) and a data catalogue",
    ),
    ("booking", "/app/booking", "Stateful: tour reservations with a date and a number of people"),
    ("cases", "/app/cases", "Stateful: a case mailbox (resolve, star, move)"),
]


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    store = ctx.sessions
    store.on_create.append(lambda session: build_session(session, ctx.seed))

    for app in APPS.values():
        mount(app, main, store)

        def page_route(request: Request, app=app) -> HTMLResponse:  # noqa: ANN001 - bound per app
            session = session_of(request, store)
            return HTMLResponse(render(app, session, client_plan(session, app.name)))

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
        event = {
            k: v for k, v in (body if isinstance(body, dict) else {}).items() if isinstance(v, (str, int))
        }
        if event.get("event") in ("click_seen", "click_swallowed") and isinstance(event.get("ordinal"), int):
            # The session's count of matching clicks: the next page load continues from it.
            session.extra["clicks_seen"] = max(int(session.extra.get("clicks_seen", 0)), event["ordinal"])
        if event.get("event") in FLAG_EVENTS:
            session.extra.setdefault("flags", {})[str(event["event"])] = True
        if event.get("event") != "click_seen":  # a click that went through is no firing
            session.audit.append({"layer": "client", "family": iv["family"].name, **event})
        return JSONResponse({"ok": True})

    register_control(main, store)
    main.add_middleware(InterventionMiddleware, store=store)
