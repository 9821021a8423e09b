"""Server-side helpers for an app with its own API (engine/spec.py `AppSpec.routes`).

What every app's handler needs, kept generic so the families apply to any app:

- `bound_session(request, store, app)`: the browser's session, or a `Rejected` 401 without a
  session, 409 for a session of another app (`session_for`: the same as a JSON answer);
- `json_object(request)`: the JSON object sent, or a `Rejected` 400 (`body_of`: as an answer);
- `failure(exception)`: the one error mapping every route shares (engine/routes.py uses it);
- `submitted(session, app, rid, fields)`: the fields of one write after the session's save
  hooks (server-layer interventions such as save drift see every app's writes this way);
- `transact(session, change)`: run a change on a copy of the state, validate the whole state
  with the app's model, then swap it in and advance the clock — a rejected change (ValueError,
  LookupError, a model violation) leaves nothing half-written;
- `next_id(records, prefix)`: ids from the state itself (`O-0012` after `O-0011`), no globals.

Handlers are `async`: they run one at a time on the server's event loop, so no two requests
interleave on a state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError

from webfovea_breakingweb.engine.determinism import stamp
from webfovea_breakingweb.engine.spec import AppSpec, BaseState
from webfovea_proving_ground.sessions import Session, SessionStore, session_of

T = TypeVar("T")
CREDENTIALS = ("analyst", "portal-2025")  # given in every stateful task's instruction


class Rejected(ValueError):
    """A change the app refuses, with the status the page gets (422 unless said)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def bound_session(request: Request, store: SessionStore, app: AppSpec) -> Session:
    """The browser's session for `app`; a `Rejected` 401 without one, 409 for another app's."""
    session = session_of(request, store)
    if session is None:
        raise Rejected(
            "No active session: this page is opened by the benchmark runner, which binds the "
            "browser to a session first (see docs/sessions.md).",
            401,
        )
    if session.extra.get("app") != app.name or session.state is None:
        raise Rejected(f"This session belongs to another application, not {app.title}.", 409)
    return session


async def json_object(request: Request) -> dict[str, Any]:
    """The JSON object sent; a `Rejected` 400 for a body that is not JSON or not an object."""
    try:
        body = await request.json()
    except ValueError:
        raise Rejected("The request body is not JSON.", 400) from None
    if not isinstance(body, dict):
        raise Rejected("The request body must be a JSON object.", 400)
    return body


def session_for(request: Request, store: SessionStore, app: AppSpec) -> Session | JSONResponse:
    """`bound_session` for a handler written by hand (engine/routes.py writes this check once)."""
    try:
        return bound_session(request, store, app)
    except Rejected as e:
        return failure(e)


async def body_of(request: Request) -> dict[str, Any] | JSONResponse:
    """`json_object` for a handler written by hand."""
    try:
        return await json_object(request)
    except Rejected as e:
        return failure(e)


def submitted(session: Session, app: AppSpec, rid: str | None, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields of one write as the server-layer save hooks leave them (`rid` None: a create)."""
    for hook in session.extra.get("save_hooks", []):
        fields = hook(session, app, rid, fields)
    return fields


def now(state: BaseState) -> str:
    """The timestamp of the change being made (the clock advances once per stored change)."""
    return stamp(state.clock + 1)


def transact(session: Session, change: Callable[[Any], T]) -> T:
    """Apply `change(state_copy)`; on success validate and store the copy (clock + 1)."""
    state: BaseState = session.state
    work = state.model_copy(deep=True)
    try:
        result = change(work)
        work.clock = state.clock + 1
        checked = type(state).model_validate(work.model_dump())
    except ValidationError as e:  # a record the change built, or the whole state, breaks the model
        raise Rejected(field_message(e)) from None
    session.state = checked
    return result


def field_message(e: ValidationError, fallback: str = "invalid value") -> str:
    """`where: what` of a model's first complaint (`rows: Input should be greater than 0`)."""
    first = e.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg', fallback)}"


def failure(e: Exception) -> JSONResponse:
    """The one error mapping of every app's API: a `Rejected` answers its status, a LookupError
    404, a model violation 422 naming the field, another ValueError 422; anything else is a bug
    and propagates (a 500)."""
    if isinstance(e, Rejected):
        return error(str(e), e.status)
    if isinstance(e, LookupError):
        # A KeyError's str() is its key's repr; the message is the key itself.
        key = isinstance(e, KeyError) and len(e.args) == 1
        return error(str(e.args[0]) if key else str(e), 404)
    if isinstance(e, ValidationError):
        return error(field_message(e), 422)
    if isinstance(e, ValueError):
        return error(str(e), 422)
    raise e


def answer(session: Session, change: Callable[[Any], dict[str, Any]]) -> JSONResponse:
    """`transact` as a JSON answer: `{"ok": true, **result}`, or the rejection's status and message."""
    try:
        out = transact(session, change)
    except (Rejected, LookupError) as e:
        return failure(e)
    return JSONResponse({"ok": True, **out})


def next_id(records: list[Any], prefix: str) -> str:
    """The next id after the highest `prefix`NNNN among the records."""
    n = 0
    for r in records:
        rid = r.id if isinstance(r, BaseModel) else r["id"]
        if rid.startswith(prefix) and rid[len(prefix) :].isdigit():
            n = max(n, int(rid[len(prefix) :]))
    return f"{prefix}{n + 1:04d}"


def find(records: list[T], rid: str, what: str) -> T:
    """The record with id `rid`, or a LookupError naming `what` (a 404)."""
    for r in records:
        if getattr(r, "id", None) == rid:
            return r
    raise LookupError(f"No {what} {rid}.")


def mount_login(app: AppSpec, main: Any, store: SessionStore) -> None:
    """`POST /api/<app>/login`: the sign-in after a session expiry (network/session_expiry)."""

    @main.post(app.api + "/login")
    async def login(request: Request) -> JSONResponse:
        s = session_of(request, store)
        if s is None:
            return error("No active session.", 401)
        try:
            body = await request.json()
            ok = (body.get("user"), body.get("password")) == CREDENTIALS
        except (ValueError, AttributeError):
            ok = False
        if not ok:
            return error("Wrong user name or password.", 403)
        s.extra["expired"] = False
        s.audit.append({"layer": "network", "event": "login", "request": len(s.requests)})
        return JSONResponse({"ok": True})
