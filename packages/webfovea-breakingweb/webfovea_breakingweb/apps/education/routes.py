"""The education site's public API under /api/env/education (seed 003 A.1: the only surface
the page and the agent touch). Reads return the typed records as JSON; writes run in a
transaction (engine/routes.py), so a refusal leaves nothing half-written and the clock
advances once.

A submission is a new attempt: refused past the attempts allowed or in a form the assignment
does not take; an attempt after the due date is marked late. Likes, favorites, subscriptions
and "done" marks are idempotent (setting what is already set changes nothing).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.education import views as v
from webfovea_breakingweb.apps.education.state import (
    DATE,
    TIME,
    EducationState,
    Entry,
    Event,
    Kind,
    Note,
    Submission,
    SubmissionComment,
    Topic,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Flag(_Body):
    on: bool


class NewSubmission(_Body):
    kind: Kind
    body: str = Field(default="", max_length=20000)
    file: str = ""


class Text(_Body):
    body: str = Field(min_length=1, max_length=10000)


class NewEntry(Text):
    parent: str | None = None


class NewTopic(_Body):
    title: str = Field(min_length=3, max_length=200)
    body: str = Field(min_length=1, max_length=10000)


class NewEvent(_Body):
    title: str = Field(min_length=1, max_length=120)
    date: str = Field(pattern=DATE)
    time: str = Field(default="", pattern=r"^$|" + TIME)
    course: str = ""
    notes: str = Field(default="", max_length=2000)


class NewNote(_Body):
    title: str = Field(min_length=1, max_length=120)
    date: str = Field(pattern=DATE)
    course: str = ""


def _course_ok(state: EducationState, cid: str) -> None:
    if cid:
        v.course_of(state, cid)


def _submit(c: Call, aid: str) -> Submission:
    a = st.find(c.state.assignments, aid, "assignment")
    fields = c.submitted(None, c.body.model_dump())
    kind = fields["kind"]
    if kind not in a.types:
        raise st.Rejected(f"“{a.title}” takes {' or '.join(a.types)} submissions, not {kind}.")
    used = len(v.attempts(c.state, aid))
    if used >= a.attempts:
        raise st.Rejected(f"No attempts left: “{a.title}” allows {a.attempts}.")
    body, file = fields.get("body", "").strip(), fields.get("file", "")
    if kind == "text" and not body:
        raise st.Rejected("A text entry cannot be empty.")
    if kind == "upload" and file not in {f.name for f in c.state.files}:
        raise st.Rejected(f"Choose one of your files to upload{f', not {file!r}' if file else ''}.")
    now = st.now(c.state)
    return Submission(id=st.next_id(c.state.submissions, "S-"), assignment=aid, attempt=used + 1, kind=kind,
                      body=body if kind == "text" else "", file=file if kind == "upload" else "",
                      submitted=now, late=now > a.due)  # fmt: skip


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:  # noqa: C901 - one route table
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/dashboard")
    def dashboard(c: Call) -> dict[str, Any]:
        courses = sorted(c.state.courses, key=lambda x: not x.favorite)  # starred first, then as listed
        unread = sum(1 for n in c.state.announcements if not n.read)
        return {
            "courses": [x.model_dump() for x in courses],
            "todo": v.todo(c.state),
            "me": c.state.me,
            "unread": unread,
        }

    @r.read("/unread")
    def unread(c: Call) -> dict[str, Any]:
        return {"unread": sum(1 for n in c.state.announcements if not n.read)}

    @r.read("/grades")
    def grades(c: Call) -> dict[str, Any]:
        return {
            "courses": [
                {**x.model_dump(), "total": v.gradebook(c.state, x.id)["total"]} for x in c.state.courses
            ]
        }

    @r.write("/courses/{cid}/favorite", body=Flag)
    def favorite(c: Call, cid: str) -> dict[str, Any]:
        course = v.course_of(c.state, cid)
        course.favorite = c.body.on
        return {"message": f"{course.code} {'added to' if c.body.on else 'removed from'} your favorites."}

    @r.read("/courses/{cid}")
    def course(c: Call, cid: str) -> dict[str, Any]:
        modules = [
            m.model_dump() for m in sorted(c.state.modules, key=lambda m: m.position) if m.course == cid
        ]
        items = [i.model_dump() for i in c.state.items if i.course == cid]
        return {"course": v.course_of(c.state, cid).model_dump(), "modules": modules, "items": items}

    @r.write("/items/{iid}/done", body=Flag)
    def done(c: Call, iid: str) -> dict[str, Any]:
        item = st.find(c.state.items, iid, "module item")
        item.done = c.body.on
        return {"message": f"“{item.title}” marked {'done' if c.body.on else 'not done'}."}

    @r.read("/courses/{cid}/assignments")
    def assignments(c: Call, cid: str) -> dict[str, Any]:
        return v.gradebook(c.state, v.course_of(c.state, cid).id)

    @r.read("/assignments/{aid}")
    def assignment(c: Call, aid: str) -> dict[str, Any]:
        a = st.find(c.state.assignments, aid, "assignment")
        subs = v.attempts(c.state, aid)
        ids = {s.id for s in subs}
        comments = [k.model_dump() for k in c.state.comments if k.submission in ids]
        return {"assignment": v.assignment_row(c.state, a), "course": v.course_of(c.state, a.course).model_dump(),
                "submissions": [s.model_dump() for s in subs], "comments": comments,
                "files": [f.model_dump() for f in c.state.files]}  # fmt: skip

    @r.write("/assignments/{aid}/submissions", body=NewSubmission)
    def submit(c: Call, aid: str) -> dict[str, Any]:
        sub = _submit(c, aid)
        c.state.submissions.append(sub)
        return {"message": f"Attempt {sub.attempt} submitted. Reference", "id": sub.id}

    @r.write("/assignments/{aid}/dismiss", body=LENIENT)
    def dismiss(c: Call, aid: str) -> dict[str, Any]:
        a = st.find(c.state.assignments, aid, "assignment")
        a.dismissed = True
        return {"message": f"“{a.title}” removed from your to-do list."}

    @r.write("/submissions/{sid}/comments", body=Text)
    def comment(c: Call, sid: str) -> dict[str, Any]:
        st.find(c.state.submissions, sid, "submission")
        fields = c.submitted(None, c.body.model_dump())
        k = SubmissionComment(id=st.next_id(c.state.comments, "SC-"), submission=sid, author=c.state.me,
                              body=fields["body"], created=st.now(c.state))  # fmt: skip
        c.state.comments.append(k)
        return {"message": "Comment added. Reference", "id": k.id}

    @r.read("/courses/{cid}/discussions")
    def discussions(c: Call, cid: str) -> dict[str, Any]:
        v.course_of(c.state, cid)
        # Pinned first, then the newest, as an LMS lists them; ties by id, so the list has one order.
        topics = sorted((t for t in c.state.topics if t.course == cid), key=lambda t: t.id)
        topics.sort(key=lambda t: t.created, reverse=True)
        topics.sort(key=lambda t: not t.pinned)
        counts = {t.id: sum(1 for e in c.state.entries if e.topic == t.id) for t in topics}
        return {"topics": [{**t.model_dump(), "replies": counts[t.id]} for t in topics]}

    @r.write("/courses/{cid}/discussions", body=NewTopic)
    def new_topic(c: Call, cid: str) -> dict[str, Any]:
        v.course_of(c.state, cid)
        fields = c.submitted(None, c.body.model_dump())
        t = Topic(id=st.next_id(c.state.topics, "D-"), course=cid, author=c.state.me, created=st.now(c.state),
                  subscribed=True, **fields)  # fmt: skip
        c.state.topics.append(t)
        return {"message": "Discussion posted. Reference", "id": t.id}

    @r.read("/discussions/{did}")
    def topic(c: Call, did: str) -> dict[str, Any]:
        t = st.find(c.state.topics, did, "discussion")
        entries = [e.model_dump() for e in c.state.entries if e.topic == did]
        return {
            "topic": t.model_dump(),
            "course": v.course_of(c.state, t.course).model_dump(),
            "entries": entries,
        }

    @r.write("/discussions/{did}/subscribe", body=Flag)
    def subscribe(c: Call, did: str) -> dict[str, Any]:
        t = st.find(c.state.topics, did, "discussion")
        t.subscribed = c.body.on
        return {"message": "Subscribed to the discussion." if c.body.on else "Unsubscribed."}

    @r.write("/discussions/{did}/entries", body=NewEntry)
    def reply(c: Call, did: str) -> dict[str, Any]:
        st.find(c.state.topics, did, "discussion")
        if c.body.parent is not None and st.find(c.state.entries, c.body.parent, "entry").topic != did:
            raise st.Rejected(f"Entry {c.body.parent} is not in discussion {did}.")
        fields = c.submitted(None, c.body.model_dump())
        e = Entry(id=st.next_id(c.state.entries, "E-"), topic=did, author=c.state.me, created=st.now(c.state),
                  likes=0, **fields)  # fmt: skip
        c.state.entries.append(e)
        return {"message": "Reply posted. Reference", "id": e.id}

    @r.write("/entries/{eid}/like", body=Flag)
    def like(c: Call, eid: str) -> dict[str, Any]:
        e = st.find(c.state.entries, eid, "entry")
        if e.liked != c.body.on:
            e.likes += 1 if c.body.on else -1
            e.liked = c.body.on
        return {"likes": e.likes, "liked": e.liked}

    @r.read("/announcements")
    def announcements(c: Call) -> dict[str, Any]:
        cid = c.query.get("course", "")
        codes = {x.id: x.code for x in c.state.courses}
        got = [n for n in c.state.announcements if not cid or n.course == cid]
        return {"announcements": [{**n.model_dump(), "course_code": codes.get(n.course, "")} for n in got]}

    @r.write("/announcements/{nid}/read", body=LENIENT)
    def read(c: Call, nid: str) -> dict[str, Any]:
        st.find(c.state.announcements, nid, "announcement").read = True
        return {}

    @r.read("/calendar")
    def calendar(c: Call) -> dict[str, Any]:
        return v.month(c.state, c.query.get("month", v.NOW[:7]))

    @r.write("/events", body=NewEvent)
    def new_event(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        _course_ok(c.state, fields["course"])
        e = Event(id=st.next_id(c.state.events, "EV-"), **fields)
        c.state.events.append(e)
        return {"message": f"Event added on {e.date}. Reference", "id": e.id, "date": e.date}

    @r.write("/events/{eid}", body=NewEvent)
    def edit_event(c: Call, eid: str) -> dict[str, Any]:
        e = st.find(c.state.events, eid, "event")
        fields = c.submitted(eid, c.body.model_dump())
        _course_ok(c.state, fields["course"])
        for k, value in fields.items():
            setattr(e, k, value)
        return {"message": f"Event saved on {e.date}. Reference", "id": e.id, "date": e.date}

    @r.read("/todo")
    def todo(c: Call) -> dict[str, Any]:
        dismissed = [v.assignment_row(c.state, a) for a in c.state.assignments if a.dismissed]
        return {
            "todo": v.todo(c.state),
            "notes": [n.model_dump() for n in c.state.notes],
            "dismissed": dismissed,
        }

    @r.write("/notes", body=NewNote)
    def new_note(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        _course_ok(c.state, fields["course"])
        n = Note(id=st.next_id(c.state.notes, "T-"), **fields)
        c.state.notes.append(n)
        return {"message": "To-do added. Reference", "id": n.id}

    @r.write("/notes/{tid}/done", body=Flag)
    def note_done(c: Call, tid: str) -> dict[str, Any]:
        n = st.find(c.state.notes, tid, "to-do")
        n.done = c.body.on
        return {"message": f"“{n.title}” {'completed' if c.body.on else 'reopened'}."}
