"""Control routes of stateful sessions (main origin, the runner's secret required):

  GET  /_control/sessions/{id}/diff   initial and current state hashes, the canonical diff and its hash
  GET  /_control/sessions/{id}/audit  the interventions' firings and the log's hash
  POST /_control/sessions/{id}/reset  back to the initial state; audit and ordinals cleared

The same three under `/control/<env>/sessions/{id}/…` for a session of that environment (seed
003 A.1's controller endpoints; 404 for another environment's session), behind the same secret.
Public pages and APIs never expose any of this.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.engine.diff import canonical_diff
from webfovea_proving_ground.sessions import CONTROL_PREFIX, Session, SessionStore, refuse

ENV_PREFIX = "/control/{env}"  # seed 003 A.1's controller endpoints, per environment


def _guarded(request: Request, store: SessionStore, session_id: str) -> Session | JSONResponse:
    """The stateful session behind a control route; a refusal without the runner's secret, 404
    for an unknown session (or one of another environment than the path names), 409 for a
    session that holds no app state."""
    if (refused := refuse(request, store)) is not None:
        return refused
    session = store.get(session_id)
    env = request.path_params.get("env")
    if session is None or (env is not None and session.extra.get("app") != env):
        where = f" of {env!r}" if env is not None else ""
        return JSONResponse({"error": f"no session {session_id!r}{where}"}, status_code=404)
    if session.state is None:
        return JSONResponse(
            {"error": f"session {session_id!r} is not a stateful task's session"}, status_code=409
        )
    return session


def register_control(main: FastAPI, store: SessionStore) -> None:
    for prefix in (CONTROL_PREFIX, ENV_PREFIX):
        _register(main, store, prefix)


def _register(main: FastAPI, store: SessionStore, prefix: str) -> None:
    @main.get(prefix + "/sessions/{session_id}/diff")
    async def diff(session_id: str, request: Request) -> JSONResponse:
        s = _guarded(request, store, session_id)
        if isinstance(s, JSONResponse):
            return s
        changes = canonical_diff(s.extra["initial"], s.state)
        return JSONResponse(
            {
                **s.public(),
                "initial_sha256": sha256_of(s.extra["initial"]),
                "final_sha256": sha256_of(s.state),
                "diff": changes,
                "diff_sha256": sha256_of(changes),
            }
        )

    @main.get(prefix + "/sessions/{session_id}/audit")
    async def audit(session_id: str, request: Request) -> JSONResponse:
        s = _guarded(request, store, session_id)
        if isinstance(s, JSONResponse):
            return s
        log = list(s.audit)
        return JSONResponse({**s.public(), "audit": log, "audit_sha256": sha256_of(log)})

    @main.post(prefix + "/sessions/{session_id}/reset")
    async def reset(session_id: str, request: Request) -> JSONResponse:
        s = _guarded(request, store, session_id)
        if isinstance(s, JSONResponse):
            return s
        # Rebuild from scratch (hooks, ordinals and closures included), as a fresh session would be.
        s.audit.clear()
        s.extra.clear()
        for hook in store.on_create:
            hook(s)
        return JSONResponse({**s.public(), **s.extra.get("public", {})})
