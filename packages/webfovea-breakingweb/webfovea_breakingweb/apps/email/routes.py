"""The email site's public API under /api/env/email (seed 003 A.1: the only surface the page
and the agent touch). Reads return the typed records as JSON; writes run in a transaction
(engine/routes.py), so a refusal leaves nothing half-written and the clock advances once.

Conversation flags (read, starred, in the inbox, trashed, labels) are set, not toggled, so
sending the same request twice leaves one change; a reply or forward adds a message to its
conversation and moves its `last` time; sending a new message starts a conversation (sent,
not in the inbox); sending a draft deletes it and sends its message.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.email.state import Draft, EmailState, Label, Message, Thread
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

FOLDERS = ("inbox", "starred", "sent", "all", "trash")
BulkAction = Literal["archive", "inbox", "read", "unread", "star", "unstar", "trash"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Flag(_Body):
    on: bool


class LabelBody(_Body):
    label: str = Field(min_length=1, max_length=40)
    on: bool = True


class NewLabel(_Body):
    name: str = Field(min_length=1, max_length=40)


class Bulk(_Body):
    ids: list[str] = Field(min_length=1, max_length=100)
    action: BulkAction


class ReplyBody(_Body):
    body: str = Field(min_length=1, max_length=20000)


class ForwardBody(_Body):
    to: str = Field(min_length=3, max_length=300)
    body: str = Field(default="", max_length=20000)


class Outgoing(_Body):
    to: str = Field(min_length=3, max_length=300)
    cc: str = Field(default="", max_length=300)
    subject: str = Field(min_length=1, max_length=200)
    body: str = Field(default="", max_length=20000)


class DraftBody(_Body):
    to: str = Field(default="", max_length=300)
    cc: str = Field(default="", max_length=300)
    subject: str = Field(default="", max_length=200)
    body: str = Field(default="", max_length=20000)


def addresses(text: str) -> str:
    """Recipients as the page shows them: trimmed, comma-separated; each must look like an address."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    for p in parts:
        if "@" not in p or p.startswith("@") or p.endswith("@") or " " in p:
            raise st.Rejected(f"{p!r} is not an email address.")
    return ", ".join(parts)


def in_folder(state: EmailState, t: Thread, folder: str) -> bool:
    if folder == "trash":
        return t.trashed
    if t.trashed:
        return False
    if folder == "inbox":
        return t.inbox
    if folder == "starred":
        return t.starred
    if folder == "sent":
        return any(m.thread == t.id and m.sender == state.address for m in state.messages)
    return True  # all mail


def matches(state: EmailState, t: Thread, text: str) -> bool:
    """Search: the words of `text` each in the subject, a sender or a message body."""
    hay = [t.subject, t.correspondent] + [
        f"{m.sender_name} {m.sender} {m.body}" for m in state.messages if m.thread == t.id
    ]
    blob = " ".join(hay).lower()
    return all(w in blob for w in text.lower().split())


def listing(state: EmailState, q: dict[str, str]) -> list[Thread]:
    """The conversations a list view shows, newest first (ties by id): a folder's, a label's,
    or the search's (over all mail but the trash)."""
    folder = q.get("folder", "inbox")
    if folder not in FOLDERS:
        raise st.Rejected(f"unknown folder {folder!r}; one of {', '.join(FOLDERS)}")
    text = q.get("q", "").strip()
    if text:
        got = [t for t in state.threads if not t.trashed and matches(state, t, text)]
    elif q.get("label"):
        got = [t for t in state.threads if not t.trashed and q["label"] in t.labels]
    else:
        got = [t for t in state.threads if in_folder(state, t, folder)]
    return sorted(sorted(got, key=lambda t: t.id), key=lambda t: t.last, reverse=True)


def summary(state: EmailState, t: Thread) -> dict[str, Any]:
    msgs = [m for m in state.messages if m.thread == t.id]
    snippet = " ".join(msgs[-1].body.split())[:90] if msgs else ""
    return {**t.model_dump(), "count": len(msgs), "snippet": snippet}


def _label(state: EmailState, name: str) -> Label:
    for lab in state.labels:
        if lab.name == name:
            return lab
    raise LookupError(f"No label {name!r}.")


def _set(t: Thread, action: str) -> None:
    field, value = {"archive": ("inbox", False), "inbox": ("inbox", True), "read": ("read", True),
                    "unread": ("read", False), "star": ("starred", True), "unstar": ("starred", False),
                    "trash": ("trashed", True)}[action]  # fmt: skip
    setattr(t, field, value)


def _send(c: Call, fields: dict[str, Any], thread: Thread | None, forwarded: str | None = None) -> Message:
    """Your message, in `thread` (a reply or forward) or a new conversation (sent, not in the inbox)."""
    state: EmailState = c.state
    when = st.now(state)
    to, cc = addresses(fields["to"]), addresses(fields.get("cc", ""))
    if not to:
        raise st.Rejected("Add at least one recipient.")
    if thread is None:
        name = next((p.name for p in state.contacts if p.address == to.split(",")[0]), to.split(",")[0])
        thread = Thread(id=st.next_id(state.threads, "T-"), subject=fields["subject"], correspondent=name,
                        last=when, inbox=False, read=True)  # fmt: skip
        state.threads.append(thread)
    thread.last = when
    m = Message(id=st.next_id(state.messages, "E-"), thread=thread.id, sender_name=state.me, sender=state.address,
                to=to, cc=cc, subject=fields["subject"], body=fields.get("body", ""), created=when, forwarded=forwarded)  # fmt: skip
    state.messages.append(m)
    return m


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/labels")
    def labels(c: Call) -> dict[str, Any]:
        s: EmailState = c.state
        unread = [t for t in s.threads if not t.trashed and not t.read]
        return {
            "labels": [{**x.model_dump(), "unread": sum(1 for t in unread if x.name in t.labels)} for x in s.labels],
            "unread": sum(1 for t in unread if t.inbox), "drafts": len(s.drafts), "me": s.me, "address": s.address,
            "contacts": [p.model_dump() for p in s.contacts],
        }  # fmt: skip

    @r.write("/labels", body=NewLabel)
    def create_label(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        name = " ".join(fields["name"].split())
        if any(x.name.lower() == name.lower() for x in c.state.labels):
            raise st.Rejected(f"A label named {name!r} already exists.", 409)
        lab = Label(id=st.next_id(c.state.labels, "G-"), name=name)
        c.state.labels.append(lab)
        return {"message": f"Label “{name}” created. Reference", "id": lab.id}

    @r.read("/threads")
    def threads(c: Call) -> dict[str, Any]:
        got = listing(c.state, c.query)
        return {"threads": [summary(c.state, t) for t in got], "total": len(got)}

    @r.read("/threads/{tid}")
    def thread(c: Call, tid: str) -> dict[str, Any]:
        t = st.find(c.state.threads, tid, "conversation")
        msgs = [m.model_dump() for m in c.state.messages if m.thread == tid]
        quoted = {m["forwarded"] for m in msgs if m["forwarded"]}
        originals = {m.id: m.model_dump() for m in c.state.messages if m.id in quoted}
        return {"thread": summary(c.state, t), "messages": msgs, "quoted": originals}

    @r.write("/threads/{tid}/read", body=Flag)
    def mark_read(c: Call, tid: str) -> dict[str, Any]:
        st.find(c.state.threads, tid, "conversation").read = c.body.on
        return {"message": "" if c.body.on else "Marked as unread."}

    @r.write("/threads/{tid}/star", body=Flag)
    def star(c: Call, tid: str) -> dict[str, Any]:
        st.find(c.state.threads, tid, "conversation").starred = c.body.on
        return {"message": "Starred." if c.body.on else "Star removed."}

    @r.write("/threads/{tid}/archive", body=Flag)
    def archive(c: Call, tid: str) -> dict[str, Any]:
        t = st.find(c.state.threads, tid, "conversation")
        t.inbox = not c.body.on
        if not c.body.on:
            t.trashed = False
        return {"message": "Conversation archived." if c.body.on else "Conversation moved to Inbox."}

    @r.write("/threads/{tid}/trash", body=Flag)
    def trash(c: Call, tid: str) -> dict[str, Any]:
        st.find(c.state.threads, tid, "conversation").trashed = c.body.on
        return {"message": "Conversation moved to Trash." if c.body.on else "Conversation restored."}

    @r.write("/threads/{tid}/labels", body=LabelBody)
    def label(c: Call, tid: str) -> dict[str, Any]:
        t = st.find(c.state.threads, tid, "conversation")
        name = _label(c.state, c.body.label).name
        if c.body.on and name not in t.labels:
            t.labels = [*t.labels, name]
        elif not c.body.on:
            t.labels = [x for x in t.labels if x != name]
        return {"message": f"Label “{name}” {'applied' if c.body.on else 'removed'}."}

    @r.write("/threads/bulk", body=Bulk)
    def bulk(c: Call) -> dict[str, Any]:
        got = [st.find(c.state.threads, tid, "conversation") for tid in dict.fromkeys(c.body.ids)]
        for t in got:
            _set(t, c.body.action)
        n = len(got)
        return {"message": f"{n} conversation{'s' if n > 1 else ''}: {c.body.action} done."}

    @r.write("/threads/{tid}/reply", body=ReplyBody)
    def reply(c: Call, tid: str) -> dict[str, Any]:
        t = st.find(c.state.threads, tid, "conversation")
        last = [m for m in c.state.messages if m.thread == tid]
        other = next((m for m in reversed(last) if m.sender != c.state.address), last[-1] if last else None)
        if other is None:
            raise st.Rejected("This conversation has no message to reply to.")
        to = other.sender if other.sender != c.state.address else other.to
        fields = c.submitted(
            None, {"to": to, "subject": "Re: " + t.subject.removeprefix("Re: "), **c.body.model_dump()}
        )
        m = _send(c, fields, t)
        return {"message": "Reply sent. Reference", "id": m.id}

    @r.write("/threads/{tid}/forward", body=ForwardBody)
    def forward(c: Call, tid: str) -> dict[str, Any]:
        t = st.find(c.state.threads, tid, "conversation")
        msgs = [m for m in c.state.messages if m.thread == tid]
        if not msgs:
            raise st.Rejected("This conversation has no message to forward.")
        fields = c.submitted(None, {"subject": "Fwd: " + t.subject, **c.body.model_dump()})
        m = _send(c, fields, t, forwarded=msgs[-1].id)
        return {"message": "Message forwarded. Reference", "id": m.id}

    @r.write("/messages", body=Outgoing)
    def send(c: Call) -> dict[str, Any]:
        m = _send(c, c.submitted(None, c.body.model_dump()), None)
        return {"message": "Message sent. Reference", "id": m.id, "thread": m.thread}

    @r.read("/drafts")
    def drafts(c: Call) -> dict[str, Any]:
        return {
            "drafts": [d.model_dump() for d in sorted(c.state.drafts, key=lambda d: d.saved, reverse=True)]
        }

    @r.write("/drafts", body=DraftBody)
    def save_draft(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        d = Draft(id=st.next_id(c.state.drafts, "D-"), saved=st.now(c.state), **fields)
        c.state.drafts.append(d)
        return {"message": "Draft saved. Reference", "id": d.id}

    @r.write("/drafts/{did}", body=DraftBody)
    def update_draft(c: Call, did: str) -> dict[str, Any]:
        d = st.find(c.state.drafts, did, "draft")
        for k, v in c.submitted(did, c.body.model_dump()).items():
            setattr(d, k, v)
        d.saved = st.now(c.state)
        return {"message": "Draft saved. Reference", "id": d.id}

    @r.write("/drafts/{did}/send", body=DraftBody)
    def send_draft(c: Call, did: str) -> dict[str, Any]:
        d = st.find(c.state.drafts, did, "draft")
        fields = c.submitted(did, c.body.model_dump())
        if not fields["subject"].strip():
            raise st.Rejected("Add a subject before sending.")
        m = _send(c, fields, None)
        c.state.drafts.remove(d)
        return {"message": "Message sent. Reference", "id": m.id, "thread": m.thread}

    @r.write("/drafts/{did}/delete", body=None)
    def discard(c: Call, did: str) -> dict[str, Any]:
        c.state.drafts.remove(st.find(c.state.drafts, did, "draft"))
        return {"message": "Draft discarded."}
