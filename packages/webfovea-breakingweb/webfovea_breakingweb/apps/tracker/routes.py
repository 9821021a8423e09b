"""The issue tracker's JSON API under `/api/tracker`, bound to the browser's session.

  GET  tickets?status=&assignee=&label=&q=&open=     the board's and the list's tickets
  GET  tickets/{id}                                  a ticket, its comments, the team, the labels
  PUT  tickets/{id}          {status?, priority?, assignee?, labels?, estimate?}   edit
  POST tickets/{id}/move     {status}                a card dropped on another board column
  POST tickets/{id}/comments {body}                  a comment by you
  POST tickets               {title, description, priority, assignee, labels, estimate}
  GET  recent                                        the tickets you reported, newest first

A write changes only what differs (a save of an unchanged form changes nothing) and is one
tick of the session clock; the session's save hooks (server-layer interventions) see the
fields of every ticket write. The sign-in after a session expiry is the engine's. A value the model rejects is a 422 and nothing is written.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import ValidationError

from webfovea_breakingweb.apps.tracker.state import ME, Comment, Ticket, TrackerState
from webfovea_breakingweb.engine.determinism import stamp
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_breakingweb.engine.store import Rejected, field_message, submitted
from webfovea_proving_ground.sessions import Session, SessionStore

API = "/api/tracker"
EDITABLE = ("status", "priority", "assignee", "labels", "estimate")
RANK = {"urgent": 0, "high": 1, "medium": 2, "low": 3}


def team(state: TrackerState) -> dict[str, Any]:
    return {
        "users": [u.model_dump() for u in state.users],
        "labels": [lab.model_dump() for lab in state.labels],
        # "code": people are shown by their user name, the Team page names them (seed/split_information).
        "unit_display": state.unit_display,
    }


def card(state: TrackerState, t: Ticket) -> dict[str, Any]:
    return {**t.model_dump(mode="json"), "comments": sum(1 for c in state.comments if c.ticket == t.id)}


def select(state: TrackerState, query: dict[str, str]) -> list[Ticket]:
    """The tickets a filter shows, most urgent first, then by id (the board's and the list's order)."""
    q = query.get("q", "").casefold()
    out = [
        t
        for t in state.tickets
        if (not query.get("status") or t.status == query["status"])
        and (not query.get("open") or t.status != "done")
        and (not query.get("assignee") or (t.assignee or "none") == query["assignee"])
        and (not query.get("label") or query["label"] in t.labels)
        and (not q or q in t.title.casefold() or q == t.id.casefold())
    ]
    return sorted(out, key=lambda t: (RANK[t.priority], t.id))


def _store(session: Session, index: int | None, record: dict[str, Any], model: type) -> Any:
    """Validate and store one ticket or comment (index None: append); a ValueError on a bad value."""
    state: TrackerState = session.state
    state.clock += 1
    record["updated"] = stamp(state.clock)
    record.setdefault("created", record["updated"])
    try:
        obj = model.model_validate(record)
    except ValidationError as e:
        state.clock -= 1
        raise ValueError(field_message(e, "invalid")) from None
    items = state.tickets if model is Ticket else state.comments
    if index is None:
        items.append(obj)
    else:
        items[index] = obj
    return obj


def update(session: Session, app: AppSpec, rid: str, body: dict[str, Any]) -> Ticket | str | None:
    """Edit a ticket with the fields sent (only those that differ); None: no such ticket."""
    state: TrackerState = session.state
    at = next((i for i, t in enumerate(state.tickets) if t.id == rid), None)
    if at is None:
        return None
    old = state.tickets[at]
    fields = {k: body[k] for k in EDITABLE if k in body}
    if "labels" in fields:
        known = {lab.id for lab in state.labels}
        if not isinstance(fields["labels"], list) or not set(fields["labels"]) <= known:
            return "labels: unknown label"
        fields["labels"] = sorted(set(fields["labels"]))
    if fields.get("assignee") in ("", "none"):
        fields["assignee"] = None
    if fields.get("assignee") and fields["assignee"] not in {u.id for u in state.users}:
        return "assignee: unknown person"
    fields = submitted(session, app, rid, fields)
    new = {k: v for k, v in fields.items() if getattr(old, k) != v}
    if not new:
        return old
    try:
        return _store(session, at, {**old.model_dump(), **new}, Ticket)  # type: ignore[no-any-return]
    except ValueError as e:
        return str(e)


def create(session: Session, app: AppSpec, body: dict[str, Any]) -> Ticket | str:
    state: TrackerState = session.state
    fields = {
        k: body[k]
        for k in ("title", "description", "priority", "assignee", "labels", "estimate")
        if k in body
    }
    fields["labels"] = sorted(set(fields.get("labels") or []))
    if not set(fields["labels"]) <= {lab.id for lab in state.labels}:
        return "labels: unknown label"
    fields["assignee"] = fields.get("assignee") or None
    fields = submitted(session, app, None, fields)
    record = {**fields, "id": f"T-{state.counter + 1:04d}", "status": "todo", "reporter": ME}
    try:
        t = _store(session, None, record, Ticket)
    except ValueError as e:
        return str(e)
    state.counter += 1
    return t  # type: ignore[no-any-return]


def comment(session: Session, rid: str, body: dict[str, Any]) -> Comment | str | None:
    state: TrackerState = session.state
    if not any(t.id == rid for t in state.tickets):
        return None
    text = str(body.get("body", "")).strip()
    if not text:
        return "Write a comment first."
    # Ids from the state itself (the highest so far + 1): no second counter in the state.
    last = max((int(c.id[2:]) for c in state.comments), default=0)
    c = _store(session, None, {"id": f"C-{last + 1:04d}", "ticket": rid, "author": ME, "body": text}, Comment)
    return c  # type: ignore[no-any-return]


def _answer(result: Any, what: str, message: str) -> dict[str, Any]:
    if result is None:
        raise Rejected(f"No ticket {what}.", 404)
    if isinstance(result, str):
        raise Rejected(result)
    return {"record": result.model_dump(mode="json"), "message": message.format(id=result.id)}


def register(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)

    @r.read("/tickets")
    def tickets(c: Call) -> dict[str, Any]:
        shown = select(c.state, c.query)
        return {"tickets": [card(c.state, t) for t in shown], "total": len(shown), **team(c.state)}

    @r.read("/tickets/{rid}")
    def ticket(c: Call, rid: str) -> dict[str, Any]:
        t = next((x for x in c.state.tickets if x.id == rid), None)
        if t is None:
            raise Rejected(f"No ticket {rid}.", 404)
        notes = sorted((x for x in c.state.comments if x.ticket == rid), key=lambda x: (x.created, x.id))
        return {
            "ticket": t.model_dump(mode="json"),
            "comments": [x.model_dump() for x in notes],
            **team(c.state),
        }

    @r.write("/tickets/{rid}", method="PUT", body=LENIENT, transact=False)
    def edit(c: Call, rid: str) -> dict[str, Any]:
        return _answer(update(c.session, app, rid, c.body), rid, "Saved {id}.")

    @r.write("/tickets/{rid}/move", body=LENIENT, transact=False)
    def move(c: Call, rid: str) -> dict[str, Any]:
        return _answer(update(c.session, app, rid, {"status": c.body.get("status")}), rid, "Moved {id}.")

    @r.write("/tickets/{rid}/comments", body=LENIENT, transact=False)
    def add_comment(c: Call, rid: str) -> dict[str, Any]:
        return _answer(comment(c.session, rid, c.body), rid, "Comment added. Reference {id}.")

    @r.write("/tickets", body=LENIENT, transact=False)
    def new(c: Call) -> dict[str, Any]:
        return _answer(create(c.session, app, c.body), "", "Created. Reference {id}.")

    @r.read("/team")
    def team_page(c: Call) -> dict[str, Any]:
        return team(c.state)

    @r.read("/recent")
    def recent(c: Call) -> dict[str, Any]:
        mine = sorted(
            (t for t in c.state.tickets if t.reporter == ME), key=lambda t: (t.created, t.id), reverse=True
        )
        return {"tickets": [card(c.state, t) for t in mine[:10]], **team(c.state)}
