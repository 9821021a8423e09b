"""The JSON API of a stateful app, bound to the browser's server-side session.

Routes (all under the app's `/api/<name>`): `GET records`, `POST records` (create),
`PUT records/{id}` (edit), `POST records/{id}/{action}` (row actions), `GET catalogue` (and
`POST login`, engine/store.py, as on every app). Every change goes through `mutate`: validate
with the app's record model (a schema violation is a 422 the page shows; nothing is
half-written), run the session's save hooks (server-layer interventions), advance the session
clock. Handlers are `async`, so they
run one at a time on the server's event loop: no two requests interleave on a state.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from webfovea.proving_ground.breakingweb.engine.determinism import stamp
from webfovea.proving_ground.breakingweb.engine.spec import SpaApp
from webfovea.proving_ground.breakingweb.engine.store import CREDENTIALS  # noqa: F401 - kept importable here
from webfovea.proving_ground.sessions import Session, SessionStore, session_of


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def _session(request: Request, store: SessionStore, app: SpaApp) -> Session | JSONResponse:
    session = session_of(request, store)
    if session is None:
        return _error(
            "No active session: this page is opened by the benchmark runner, which binds the "
            "browser to a session first (see docs/sessions.md).",
            401,
        )
    if session.extra.get("app") != app.name or session.state is None:
        return _error(f"This session belongs to another application, not {app.title}.", 409)
    return session


def _validation_message(e: ValidationError) -> str:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid value')}"


def mutate(session: Session, app: SpaApp, rid: str | None, fields: dict[str, Any]) -> dict[str, Any]:
    """Create (rid None) or update one record; returns the stored record. Raises ValueError."""
    state = session.state
    records = state.records
    old = next((r for r in records if r.id == rid), None) if rid is not None else None
    if rid is not None and old is None:
        raise LookupError(f"no {app.noun} {rid}")
    merged = {**(old.model_dump() if old else app.defaults), **fields}
    for hook in session.extra.get("save_hooks", []):  # server-layer interventions (save drift)
        merged = hook(session, app, rid, merged)
    state.clock += 1
    merged["updated"] = stamp(state.clock)
    if old is None:
        merged["id"] = f"{app.id_prefix}{state.counter + 1:04d}"
        merged["created"] = merged["updated"]
    try:
        record = app.record_model.model_validate(merged)
    except ValidationError as e:
        state.clock -= 1
        raise ValueError(_validation_message(e)) from None
    if old is None:
        state.counter += 1
        records.append(record)
    else:
        records[records.index(old)] = record
    return record.model_dump(mode="json")


def _saved(
    session: Session, app: SpaApp, rid: str | None, fields: dict[str, Any], message: str
) -> JSONResponse:
    """One create/update/row action through `mutate`: 404 for an unknown record, 422 for a schema
    violation (nothing written), else the stored record and `message` (its `{id}` filled in)."""
    try:
        saved = mutate(session, app, rid, fields)
    except LookupError as e:
        return _error(str(e), 404)
    except ValueError as e:
        return _error(str(e), 422)
    return JSONResponse({"ok": True, "record": saved, "message": message.replace("{id}", str(saved["id"]))})


def public_records(session: Session) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in session.state.records]


def register_app(app: SpaApp, main: FastAPI, store: SessionStore) -> None:
    api = app.api

    @main.get(api + "/records")
    async def records(request: Request) -> JSONResponse:
        s = _session(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        return JSONResponse({"ok": True, "records": public_records(s)})

    async def _body(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return _error("The request body is not JSON.", 400)
        if not isinstance(body, dict):
            return _error("The request body must be a JSON object.", 400)
        allowed = {f.name for f in app.fields}
        return {k: v for k, v in body.items() if k in allowed}

    @main.post(api + "/records")
    async def create(request: Request) -> JSONResponse:
        s = _session(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        if not app.creatable:
            return _error(f"New {app.noun}s cannot be created here.", 405)
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        return _saved(s, app, None, body, "Saved. Reference {id}.")

    @main.put(api + "/records/{rid}")
    async def update(rid: str, request: Request) -> JSONResponse:
        s = _session(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        return _saved(s, app, rid, body, "Saved. Reference {id}.")

    @main.post(api + "/records/{rid}/{action}")
    async def act(rid: str, action: str, request: Request) -> JSONResponse:
        s = _session(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        spec = next((a for a in app.row_actions if a.name == action), None)
        if spec is None:
            return _error(f"Unknown action {action!r}.", 404)
        fields = dict(spec.sets)
        if spec.choose:
            try:
                body = await request.json()
                fields[spec.choose] = body[spec.choose]
            except (ValueError, KeyError, TypeError):
                return _error(f"Choose a {spec.choose} first.", 422)
        return _saved(s, app, rid, fields, spec.label + ": done for {id}.")

    @main.get(api + "/catalogue")
    async def catalogue_all(request: Request) -> JSONResponse:
        return await catalogue(request, "")

    @main.get(api + "/catalogue/{topic}")
    async def catalogue(request: Request, topic: str) -> JSONResponse:
        s = _session(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        st = s.state
        rows = [r for r in st.catalogue if not topic or r.get("topic") == topic]
        units = {u["id"]: u["name"] for u in st.units}
        shown = [
            {**r, "unit": r["unit"] if st.unit_display == "code" else units.get(r["unit"], r["unit"])}
            for r in rows
        ]
        return JSONResponse(
            {
                "ok": True,
                "rows": shown,
                "filter": topic,
                "key_figures": st.key_figures,
                "unit_display": st.unit_display,
                "units": st.units,
            }
        )
