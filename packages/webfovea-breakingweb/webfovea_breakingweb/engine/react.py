"""What every React environment (react/, seed 003 A.1) gets from the engine: its page shell,
its committed bundle, and the route its page asks which client-layer interventions are on.

The page is a shell (`<div id="root">` and the bundle `/env/_static/<env>.js`); everything
else — the header, the status area (`#wf-status`: `#error`, `#toast`, the sign-in form), the
views — is rendered by React. The client-layer interventions are compiled into every bundle
(react/kit/Interventions.jsx hands the plan to interventions/iv.js, compiled in): the page asks
`GET /api/env/<env>/interventions` before it renders and stays inert when the answer's `plan`
is null, so clean and intervention runs load the same bytes and differ only in that answer.
The same answer carries `shell` when a seed-layer family filled the shell's content (a key
figures box, unit codes and their legend): the page draws it above the app.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.page import BASE_CSS, client_plan
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session, SessionStore
from webfovea_proving_ground.sites.layout import esc, js_data

REACT_DIR = Path(__file__).resolve().parent.parent / "react"
DIST = REACT_DIR / "dist"


# The shell's boxes above the app (react/kit/Shell.jsx), drawn only when a seed-layer family fills them.
SHELL_CSS = """
#key-figures, #unit-legend { border: 1px solid #e6c200; background: #fff8e1; border-radius: 6px;
  padding: 10px 14px; margin: 0 0 14px 0; max-width: 900px; }
#key-figures h2 { font-size: 15px; margin: 0 0 6px 0; }
#key-figures .value { font-size: 22px; }
#unit-legend nav.tabs a { color: #14507f; }
#units td { padding: 4px 12px 4px 0; }
"""


@lru_cache(maxsize=16)
def bundle(env: str) -> bytes:
    """The committed bundle of one environment (react/dist/<env>.js)."""
    path = DIST / f"{env}.js"
    if not path.is_file():
        raise FileNotFoundError(
            f"no React bundle for {env!r} at {path}; build it: cd {REACT_DIR} && npm run build"
        )
    return path.read_bytes()


@lru_cache(maxsize=16)
def styles(env: str) -> str:
    return (REACT_DIR / "envs" / env / f"{env}.css").read_text(encoding="utf-8")


def react_page(app: AppSpec, session: Session | None, plan: dict[str, Any] | None) -> str:
    """The shell of a React environment. The plan is not in it: the page asks for it."""
    del session, plan
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(app.title)}</title>
<style>{BASE_CSS}{SHELL_CSS}{styles(app.name)}</style></head>
<body><div id="root"></div>
<script>window.WF_ENV = {js_data({"env": app.name, "api": app.api, "title": app.title})};</script>
<script src="/env/_static/{app.name}.js"></script>
</body></html>"""


def mount_react(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    """The bundle route and `GET <api>/interventions` (the session's dispatch list: the client
    plan, or null when clean; never the task, its target or the evaluator's state)."""

    @main.get(f"/env/_static/{app.name}.js")
    def script() -> Response:
        return Response(bundle(app.name), media_type="text/javascript")

    @main.get(app.api + "/interventions")
    def interventions(request: Request) -> JSONResponse:
        try:
            session = st.bound_session(request, store, app)
        except st.Rejected as e:
            return st.failure(e)
        out: dict[str, Any] = {"ok": True, "plan": client_plan(session, app.name)}
        shell = shell_content(session)
        if shell:  # only when a seed-layer family filled it: a clean page is asked nothing more
            out["shell"] = shell
        return JSONResponse(out)


def shell_content(session: Session) -> dict[str, Any]:
    """What the shell draws above the app (react/kit/Shell.jsx): the key figures box and, when
    the pages show unit codes, the legend of their names; {} when neither is on."""
    state = session.state
    out: dict[str, Any] = {}
    if getattr(state, "key_figures", None):
        out["key_figures"] = state.key_figures  # type: ignore[union-attr]
    if getattr(state, "unit_display", "name") == "code":
        out["unit_display"] = "code"
        out["units"] = state.units  # type: ignore[union-attr]
    return out


__all__ = ["DIST", "REACT_DIR", "bundle", "mount_react", "react_page", "shell_content"]
