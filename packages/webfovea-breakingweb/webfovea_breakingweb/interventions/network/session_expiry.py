"""network/session_expiry: the first write (or filter) answers 401 and the page asks to sign
in again; what was typed is lost. Backtracking: sign in (credentials in the task), redo.

Real-world counterpart: an expired session (HTTP 401).
"""

from __future__ import annotations

import random

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import CREDENTIALS
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    NetworkRule,
    Step,
    detour,
    submit_index,
)
from webfovea_proving_ground.plan import L, click, fill, visible
from webfovea_proving_ground.sessions import Session

BODY = {"ok": False, "expired": True, "error": "Your session has expired. Please sign in again."}


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    if ordinal == 1:
        session.extra["expired"] = True
        return Effect(status=401, body=BODY, note="expired")
    return None


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    """Sign in wherever the form shows (a handler, webfovea_proving_ground/oracle/handlers.py): the
    first matching call may be the page's own first load or an early view, not the submit.
    After a sign-in at the submit or later the change is made again from `redo_from` (the
    draft is lost); before it, the step that was refused is taken again."""
    if not plan:
        return plan
    login = [
        fill(L("#login-user"), CREDENTIALS[0]),
        fill(L("#login-pass"), CREDENTIALS[1]),
        click(L("#login-go"), expect={"target": L("#login"), "visible": False}),
    ]
    # Marked: a misreading oracle (webfovea_proving_ground/oracle/misreads.py) may not sign in again.
    signin = {**detour(wait_login(), "sign-in", visible(L("#login-go"))), "span": 1 + len(login)}
    handler = {
        "when": visible(L("#login-go")),
        "do": [signin, *login],
        "redo_from": int(task.targets.get("redo_from", 0)),
        "redo_after": submit_index(task),
    }
    return [{**plan[0], "on": [*plan[0].get("on", []), handler]}, *plan[1:]]


def wait_login() -> Step:
    return {"op": "wait", "until": visible(L("#login-go"))}


FAMILY = Family(
    name="network/session_expiry",
    layer="network",
    primitive="backtracking",
    summary="the first write answers 401 and a sign-in form; the draft is lost",
    counterpart="an expired session (HTTP 401)",
    cue="HTTP 401 and a sign-in form; the draft is gone",
    recovery="sign in with the given credentials and redo the change",
    detect="status",
    status=401,
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
    recover=_recover,
)
