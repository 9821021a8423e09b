"""The mail client's JSON API under `/api/mail`, bound to the browser's server-side session.

  GET  messages?folder=&label=&q=&scope=&page=   one page of a folder, a label or a search
  GET  messages/{id}                             a message and its whole conversation
  POST messages/{id}/{action}                    read, unread, star, unstar, archive, trash,
                                                 spam, inbox, move {folder}, label/unlabel {label}
  POST bulk/{action}        {ids: [...], ...}    the same on every selected message
  POST send                 {to, subject, body, in_reply_to?, forward_of?, attachments?}

Every change is one tick of the session clock; only messages whose values really change are
touched (`updated`), so marking a read message read changes nothing. The sign-in after a
session expiry is the engine's (`POST /api/mail/login`, engine/mount.py); the session lookup,
the body parse and the error mapping are engine/routes.py's. These writes change the live state
themselves (`transact=False`): they touch only what changes.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from pydantic import ValidationError

from webfovea_breakingweb.apps.mail.state import FOLDERS, MailState, Message
from webfovea_breakingweb.engine.determinism import stamp
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_breakingweb.engine.store import Rejected, field_message
from webfovea_proving_ground.sessions import SessionStore

API = "/api/mail"
PAGE = 25
ACTIONS = (
    "read",
    "unread",
    "star",
    "unstar",
    "archive",
    "trash",
    "spam",
    "inbox",
    "move",
    "label",
    "unlabel",
)
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")


def summary(m: Message, sizes: dict[str, int]) -> dict[str, Any]:
    return {
        "id": m.id,
        "thread": m.thread,
        "folder": m.folder,
        "sender": m.sender,
        "to": m.to,
        "subject": m.subject,
        "date": m.date,
        "read": m.read,
        "starred": m.starred,
        "labels": m.labels,
        "attachments": len(m.attachments),
        "thread_size": sizes.get(m.thread, 1),
    }


def _matches(m: Message, q: str) -> bool:
    q = q.casefold()
    return q in m.subject.casefold() or q in m.sender.casefold() or q in m.sender_email.casefold()


def listing(state: MailState, folder: str, label: str, q: str, scope: str, page: int) -> dict[str, Any]:
    if label:
        shown = [m for m in state.messages if label in m.labels and m.folder not in ("trash", "spam")]
    else:
        shown = [m for m in state.messages if m.folder == folder]
    if q:
        pool = state.messages if scope == "all" else shown
        shown = [m for m in pool if _matches(m, q)]
    shown.sort(key=lambda m: (m.date, m.id), reverse=True)
    sizes: dict[str, int] = {}
    for m in state.messages:
        sizes[m.thread] = sizes.get(m.thread, 0) + 1
    pages = max(1, -(-len(shown) // PAGE))
    page = min(max(page, 1), pages)
    return {
        "ok": True,
        "messages": [summary(m, sizes) for m in shown[(page - 1) * PAGE : page * PAGE]],
        "total": len(shown),
        "unread": sum(1 for m in shown if not m.read),
        "page": page,
        "pages": pages,
        **counts(state),
    }


def counts(state: MailState) -> dict[str, Any]:
    """The sidebar's unread counts per folder and per label, and the labels."""
    return {
        "counts": {f: sum(1 for m in state.messages if m.folder == f and not m.read) for f, _ in FOLDERS},
        "label_counts": {
            lab.id: sum(
                1 for m in state.messages if lab.id in m.labels and not m.read and m.folder != "trash"
            )
            for lab in state.labels
        },
        "labels": [lab.model_dump() for lab in state.labels],
    }


def changed(m: Message, action: str, body: dict[str, Any], labels: set[str]) -> dict[str, Any] | str:
    """The fields `action` sets on `m` (an error message for a bad request)."""
    simple: dict[str, dict[str, Any]] = {
        "read": {"read": True},
        "unread": {"read": False},
        "star": {"starred": True},
        "unstar": {"starred": False},
        "archive": {"folder": "archive"},
        "trash": {"folder": "trash"},
        "spam": {"folder": "spam"},
        "inbox": {"folder": "inbox"},
    }
    if action in simple:
        return simple[action]
    if action == "move":
        folder = body.get("folder")
        if folder not in {f for f, _ in FOLDERS} - {"sent"}:
            return "Choose a folder to move to."
        return {"folder": folder}
    label = body.get("label")
    if label not in labels:
        return "Choose a label first."
    have = set(m.labels)
    have = have | {label} if action == "label" else have - {label}
    return {"labels": sorted(have)}


def apply(state: MailState, ids: list[str], action: str, body: dict[str, Any]) -> list[str] | str:
    """Apply one action to messages; the ids that really changed, or an error message."""
    by_id = {m.id: i for i, m in enumerate(state.messages)}
    missing = [i for i in ids if i not in by_id]
    if missing or not ids:
        return f"No such message: {', '.join(missing)}" if missing else "Select at least one message."
    labels = {lab.id for lab in state.labels}
    updates: list[tuple[int, dict[str, Any]]] = []
    for mid in ids:
        m = state.messages[by_id[mid]]
        fields = changed(m, action, body, labels)
        if isinstance(fields, str):
            return fields
        new = {k: v for k, v in fields.items() if getattr(m, k) != v}
        if new:
            updates.append((by_id[mid], new))
    if updates:
        state.clock += 1
    for i, new in updates:
        state.messages[i] = state.messages[i].model_copy(update={**new, "updated": stamp(state.clock)})
    return [state.messages[i].id for i, _ in updates]


def send(state: MailState, body: dict[str, Any]) -> Message | str:
    to = str(body.get("to", "")).strip()
    if not EMAIL.match(to):
        return "Enter the recipient's e-mail address."
    by_id = {m.id: m for m in state.messages}
    parent = by_id.get(str(body.get("in_reply_to") or body.get("forward_of") or ""))
    files = []
    if parent is not None and body.get("forward_of") and body.get("attachments"):
        files = list(parent.attachments)
    state.clock += 1
    when = stamp(state.clock)
    try:
        msg = Message(
            id=f"M-{state.counter + 1:04d}",
            thread=parent.thread
            if parent is not None and body.get("in_reply_to")
            else f"T-N{state.counter + 1}",
            folder="sent",
            sender="Me",
            sender_email=state.me,
            to=to,
            subject=str(body.get("subject", "")).strip(),
            body=str(body.get("body", "")).strip(),
            date=when,
            read=True,
            attachments=files,
            in_reply_to=parent.id if parent is not None and body.get("in_reply_to") else None,
            forward_of=parent.id if parent is not None and body.get("forward_of") else None,
            created=when,
            updated=when,
        )
    except ValidationError as e:
        state.clock -= 1
        return field_message(e)
    state.counter += 1
    state.messages.append(msg)
    return msg


def register(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)

    @r.read("/messages")
    def messages(c: Call) -> dict[str, Any]:
        p = c.request.query_params
        try:
            page = int(p.get("page", "1"))
        except ValueError:
            page = 1
        folder = p.get("folder", "inbox") or "inbox"
        return listing(c.state, folder, p.get("label", ""), p.get("q", ""), p.get("scope", ""), page)

    @r.read("/messages/{mid}")
    def message(c: Call, mid: str) -> dict[str, Any]:
        m = next((x for x in c.state.messages if x.id == mid), None)
        if m is None:
            raise Rejected(f"No message {mid}.", 404)
        thread = sorted((x for x in c.state.messages if x.thread == m.thread), key=lambda x: (x.date, x.id))
        answered = [
            ("Forwarded to " if x.forward_of == m.id else "Replied to ") + x.to
            for x in c.state.messages
            if m.id in (x.in_reply_to, x.forward_of) and x.folder == "sent"
        ]
        return {
            "message": m.model_dump(mode="json"),
            "thread": [x.model_dump(mode="json") for x in thread],
            "answered": answered,
            **counts(c.state),
        }

    def act(c: Call, ids: list[str] | None, action: str) -> dict[str, Any]:
        if action not in ACTIONS:
            raise Rejected(f"Unknown action {action!r}.", 404)
        if ids is None:
            raw = c.body.get("ids")
            ids = [str(i) for i in raw] if isinstance(raw, list) else []
        done = apply(c.state, ids, action, c.body)
        if isinstance(done, str):
            raise Rejected(done, 404 if done.startswith("No such") else 422)
        n = len(ids)
        return {"changed": done, "message": f"Done: {n} message{'s' * (n != 1)} updated."}

    @r.write("/messages/{mid}/{action}", body=LENIENT, transact=False)
    def act_one(c: Call, mid: str, action: str) -> dict[str, Any]:
        return act(c, [mid], action)

    @r.write("/bulk/{action}", body=LENIENT, transact=False)
    def act_bulk(c: Call, action: str) -> dict[str, Any]:
        return act(c, None, action)

    @r.write("/send", body=LENIENT, transact=False)
    def send_route(c: Call) -> dict[str, Any]:
        msg = send(c.state, c.body)
        if isinstance(msg, str):
            raise Rejected(msg)
        return {"record": msg.model_dump(mode="json"), "message": f"Sent. Reference {msg.id}."}
