"""A session's state: built when the runner makes the session, kept with its initial snapshot.

The hook looks the task up (a paired copy `ID--variant` is its base task), builds the app's
clean initial state from `rng(task, seed, None, "state")`, applies the variant's seed and
server interventions with `rng(task, seed, variant, family)`, and keeps the result as the
initial snapshot (its sha256 goes back to the runner). Sessions of tasks that are not
stateful get nothing, unless they name a variant: that is refused (422), never ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..interventions import IvContext, UnknownFamily, family
from ..sessions import Session
from .apps import APPS
from .determinism import rng, sha256_of
from .tasks import base_id, initial_state, stateful_tasks

IV_JS = (Path(__file__).parent.parent / "interventions" / "iv.js").read_text(encoding="utf-8")


def build_session(session: Session, seed: int) -> None:
    tid = base_id(session.task_id)
    task = stateful_tasks(seed).get(tid)
    if task is None:
        if session.variant:
            raise ValueError(f"variant {session.variant!r} given for {session.task_id!r}, which is not a stateful task")
        return
    if session.seed != seed:
        raise ValueError(f"the sites run with seed {seed}; a session for seed {session.seed} would not match them")
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
        ctx = IvContext(session, task, app, rng(tid, seed, session.variant, fam.name), fam.name, fam.layer)
        if fam.at_create is not None:
            fam.at_create(ctx)
        routes = {k: task.targets[k] for k in ("main", "write") if k in task.targets}
        session.extra["iv"] = {"family": fam, "rng": ctx.rng, "routes": routes,
                               "client": fam.client(ctx) if fam.client else None}
        public["family"] = fam.name
    session.extra["initial"] = session.state.model_copy(deep=True)
    public["initial_sha256"] = sha256_of(session.state)
    session.extra["public"] = public
