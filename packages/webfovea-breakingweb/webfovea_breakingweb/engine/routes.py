"""An app's JSON routes, each one decorated function: what every route needs is written once here.

Every route of every app does the same three things before and after its own work: find the
browser's session and check that it belongs to this app, parse the body, and turn a refusal into
a JSON error. `AppRoutes` does them (as Playwright MCP's `defineTabTool` writes a tool's
precondition once), so a handler holds only what its route is for:

    r = AppRoutes(app, main, store)

    @r.read("/orders/{oid}")
    def order(c: Call, oid: str) -> dict[str, Any]:
        return {"order": st.find(c.state.orders, oid, "order").model_dump()}

    @r.write("/orders/{oid}/cancel", body=None)
    def cancel(c: Call, oid: str) -> dict[str, Any]:
        st.find(c.state.orders, oid, "order").status = "cancelled"
        return {"message": f"Order {oid} cancelled."}

- the session: `store.bound_session` (401 without one, 409 for another app's);
- the body, by `body=`: `JSON` (a JSON object, else 400), `LENIENT` (a JSON object, `{}` for
  anything else), None (not read), or a Pydantic model (a JSON object validated into it; a
  violation is a 422 naming the field);
- the answer: the handler returns the answer's fields, sent as `{"ok": true, **fields}`, or
  raises; `store.failure` maps the exception (`Rejected(message, status)`, LookupError 404, a
  model violation or another ValueError 422) to `{"ok": false, "error": message}`;
- the write: with `transact=True` (a write's default) the handler works on a copy of the state
  (`c.state`) that `store.transact` validates and swaps in, advancing the clock: a refusal
  leaves nothing half-written. An app that keeps its own write discipline (the generic SPA's
  `mutate`, the mail client, the tracker) says `transact=False` and changes `c.session.state`.

Path parameters reach the handler as keyword arguments. Handlers are plain functions called
from an `async` endpoint: they run one at a time on the server's event loop, so no two requests
interleave on a state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session, SessionStore

JSON = "json"  # a JSON object, else a 400
LENIENT = "lenient"  # a JSON object, or {} for a body that is none (the page sends what it has)
Body = str | type[BaseModel] | None
Answer = dict[str, Any]
Handler = Callable[..., Answer]


@dataclass(frozen=True)
class Call:
    """What a handler gets: the request, its session, the parsed body and the state to work on
    (in a transacted write, the copy that is stored if the handler returns)."""

    request: Request
    session: Session
    app: AppSpec
    body: Any
    state: Any

    @property
    def query(self) -> dict[str, str]:
        return dict(self.request.query_params)

    def submitted(self, rid: str | None = None, fields: dict[str, Any] | None = None) -> dict[str, Any]:
        """`fields` (default: the body) as the session's save hooks leave them: every write shows
        its fields to the server-layer families this way (`rid` None: a create)."""
        return st.submitted(self.session, self.app, rid, self.body if fields is None else fields)


async def _parse(request: Request, body: Body) -> Any:
    if body is None:
        return None
    if body == LENIENT:
        try:
            got = await request.json()
        except ValueError:
            return {}
        return got if isinstance(got, dict) else {}
    got = await st.json_object(request)
    if body == JSON:
        return got
    return body.model_validate(got)  # type: ignore[union-attr]  # a violation: 422 naming the field


class AppRoutes:
    """The route decorators of one app, mounted on `main` under the app's `/api/<name>`."""

    def __init__(self, app: AppSpec, main: FastAPI, store: SessionStore) -> None:
        self.app, self.main, self.store = app, main, store

    def read(self, path: str, method: str = "GET") -> Callable[[Handler], Handler]:
        """A route that reads the state: no body, no transaction."""
        return self.route(method, path, body=None, transact=False)

    def write(
        self, path: str, method: str = "POST", *, body: Body = JSON, transact: bool = True
    ) -> Callable[[Handler], Handler]:
        """A route that changes the state (or checks a change, `transact=False`)."""
        return self.route(method, path, body=body, transact=transact)

    def route(self, method: str, path: str, *, body: Body, transact: bool) -> Callable[[Handler], Handler]:
        if body not in (None, JSON, LENIENT) and not (isinstance(body, type) and issubclass(body, BaseModel)):
            raise ValueError(
                f"route {method} {path}: body is JSON, LENIENT, None or a Pydantic model, not {body!r}"
            )

        def register(handler: Handler) -> Handler:
            async def endpoint(request: Request) -> JSONResponse:
                try:
                    session = st.bound_session(request, self.store, self.app)
                    parsed = await _parse(request, body)
                    call = Call(request, session, self.app, parsed, session.state)
                    params = request.path_params
                    if transact:
                        out = st.transact(session, lambda work: handler(replace(call, state=work), **params))
                    else:
                        out = handler(call, **params)
                except (LookupError, ValueError) as e:  # Rejected is a ValueError
                    return st.failure(e)
                return JSONResponse({"ok": True, **out})

            endpoint.__name__ = handler.__name__  # the route's name in FastAPI's table
            self.main.add_api_route(self.app.api + path, endpoint, methods=[method])
            return handler

        return register


__all__ = ["JSON", "LENIENT", "AppRoutes", "Call"]
