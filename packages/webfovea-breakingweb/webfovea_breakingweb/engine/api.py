"""The JSON API of a stateful app, bound to the browser's server-side session.

Routes (all under the app's `/api/<name>`): `GET records`, `POST records` (create),
`PUT records/{id}` (edit), `POST records/{id}/{action}` (row actions), `GET catalogue` (and
`POST login`, engine/store.py, as on every app). Every change goes through `mutate`: validate
with the app's record model (a schema violation is a 422 the page shows; nothing is
half-written), run the session's save hooks (server-layer interventions), advance the session
clock. The session lookup, the body parse and the error mapping are engine/routes.py's;
these writes keep their own discipline (`transact=False`): `mutate` changes the live state.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import ValidationError

from webfovea_breakingweb.engine.determinism import stamp
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import SpaApp
from webfovea_breakingweb.engine.store import Rejected, field_message
from webfovea_proving_ground.sessions import Session, SessionStore


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
        raise ValueError(field_message(e)) from None
    if old is None:
        state.counter += 1
        records.append(record)
    else:
        records[records.index(old)] = record
    return record.model_dump(mode="json")


def _saved(c: Call, app: SpaApp, rid: str | None, fields: dict[str, Any], message: str) -> dict[str, Any]:
    """One create/update/row action through `mutate` (an unknown record: 404; a schema
    violation: 422, nothing written): the stored record and `message` (its `{id}` filled in)."""
    saved = mutate(c.session, app, rid, fields)
    return {"record": saved, "message": message.replace("{id}", str(saved["id"]))}


def public_records(session: Session) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in session.state.records]


def register_app(app: SpaApp, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    allowed = {f.name for f in app.fields}

    def form(c: Call) -> dict[str, Any]:
        return {k: v for k, v in c.body.items() if k in allowed}

    @r.read("/records")
    def records(c: Call) -> dict[str, Any]:
        return {"records": public_records(c.session)}

    if app.creatable:

        @r.write("/records", transact=False)
        def create(c: Call) -> dict[str, Any]:
            return _saved(c, app, None, form(c), "Saved. Reference {id}.")

    else:  # refused before the body is read

        @r.read("/records", method="POST")
        def create(c: Call) -> dict[str, Any]:
            raise Rejected(f"New {app.noun}s cannot be created here.", 405)

    @r.write("/records/{rid}", method="PUT", transact=False)
    def update(c: Call, rid: str) -> dict[str, Any]:
        return _saved(c, app, rid, form(c), "Saved. Reference {id}.")

    @r.write("/records/{rid}/{action}", body=LENIENT, transact=False)
    def act(c: Call, rid: str, action: str) -> dict[str, Any]:
        spec = next((a for a in app.row_actions if a.name == action), None)
        if spec is None:
            raise Rejected(f"Unknown action {action!r}.", 404)
        fields = dict(spec.sets)
        if spec.choose:
            if spec.choose not in c.body:
                raise Rejected(f"Choose a {spec.choose} first.")
            fields[spec.choose] = c.body[spec.choose]
        return _saved(c, app, rid, fields, spec.label + ": done for {id}.")

    @r.read("/catalogue")
    def catalogue_all(c: Call) -> dict[str, Any]:
        return catalogue(c, "")

    @r.read("/catalogue/{topic}")
    def catalogue(c: Call, topic: str) -> dict[str, Any]:
        st = c.state
        rows = [row for row in st.catalogue if not topic or row.get("topic") == topic]
        units = {u["id"]: u["name"] for u in st.units}
        shown = [
            {**row, "unit": row["unit"] if st.unit_display == "code" else units.get(row["unit"], row["unit"])}
            for row in rows
        ]
        return {
            "rows": shown,
            "filter": topic,
            "key_figures": st.key_figures,
            "unit_display": st.unit_display,
            "units": st.units,
        }


__all__ = ["mutate", "public_records", "register_app"]
