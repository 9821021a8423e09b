"""The social site's public API under /api/env/social (seed 003 A.1: the only surface the page
and the agent touch). Reads return the typed records as JSON; writes run in a transaction
(engine/routes.py), so a refusal leaves nothing half-written and the clock advances once.

Votes are idempotent per direction (voting up twice keeps one up vote); a locked post takes no
new comments; moderation needs the community's moderator (403 otherwise) and writes a
moderation-log entry beside the change.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.social.state import (
    Comment,
    DirectMessage,
    ModAction,
    ModLogEntry,
    Post,
    SocialState,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.determinism import EPOCH
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

SORTS = ("hot", "new", "top")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewPost(_Body):
    community: str
    title: str = Field(min_length=3, max_length=300)
    body: str = Field(default="", max_length=10000)
    flair: str = ""


class NewComment(_Body):
    body: str = Field(min_length=1, max_length=10000)
    parent: str | None = None


class VoteBody(_Body):
    dir: Literal[-1, 0, 1]


class SaveBody(_Body):
    saved: bool


class JoinBody(_Body):
    joined: bool


class NewMessage(_Body):
    to: str = Field(min_length=3, max_length=40)
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)


class ModBody(_Body):
    action: ModAction
    reason: str = Field(default="", max_length=200)


def _hours_old(created: str) -> int:
    """Hours before the sites' epoch: a stable, clock-free age."""
    return int((EPOCH - datetime.fromisoformat(created.replace("Z", "+00:00"))).total_seconds() // 3600)


def ranked(posts: list[Post], sort: str) -> list[Post]:
    """Pinned posts first; then `hot` (score less two points an hour of age), `new` or `top`;
    ties by id, so every list has one order."""
    if sort not in SORTS:
        raise st.Rejected(f"unknown sort {sort!r}; one of {', '.join(SORTS)}")
    out = sorted(posts, key=lambda p: p.id)
    if sort == "new":
        out.sort(key=lambda p: p.created, reverse=True)
    else:
        hot = sort == "hot"
        out.sort(key=lambda p: -(p.score - 2 * _hours_old(p.created)) if hot else -p.score)
    return sorted(out, key=lambda p: not p.pinned)


def summary(state: SocialState, p: Post) -> dict[str, Any]:
    comments = sum(1 for k in state.comments if k.post == p.id and not k.removed)
    return {**p.model_dump(), "comments": comments}


def listing(state: SocialState, q: dict[str, str]) -> list[Post]:
    """The posts a list view shows: a community's, your home feed (joined communities) or all;
    optionally those whose title holds `q`, or by one `author`. Removed posts only in communities you moderate."""
    mod = {c.name for c in state.communities if c.moderator}
    if q.get("community"):
        posts = [p for p in state.posts if p.community == q["community"]]
    elif q.get("feed", "home") == "home":
        joined = {c.name for c in state.communities if c.joined}
        posts = [p for p in state.posts if p.community in joined]
    else:
        posts = list(state.posts)
    posts = [p for p in posts if not p.removed or p.community in mod]
    if q.get("author"):  # "me": yours (the new-post page lists them under its form)
        who = state.me if q["author"] == "me" else q["author"]
        posts = [p for p in posts if p.author == who]
    text = q.get("q", "").strip().lower()
    if text:
        posts = [p for p in posts if text in p.title.lower()]
    return ranked(posts, q.get("sort", "hot"))


def _community(state: SocialState, name: str) -> Any:
    for c in state.communities:
        if c.name == name:
            return c
    raise LookupError(f"No community r/{name}.")


def _vote(rec: Post | Comment, direction: int) -> None:
    rec.score += direction - rec.my_vote
    rec.my_vote = direction  # type: ignore[assignment]


def _moderate(c: Call, community: str, action: str, target: str, reason: str) -> None:
    if not _community(c.state, community).moderator:
        raise st.Rejected(f"You are not a moderator of r/{community}.", 403)
    c.state.modlog.append(
        ModLogEntry(id=st.next_id(c.state.modlog, "L-"), community=community, action=action,  # type: ignore[arg-type]
                    target=target, reason=reason, created=st.now(c.state))
    )  # fmt: skip


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/communities")
    def communities(c: Call) -> dict[str, Any]:
        return {"communities": [x.model_dump() for x in c.state.communities], "me": c.state.me}

    @r.write("/communities/{name}/join", body=JoinBody)
    def join(c: Call, name: str) -> dict[str, Any]:
        com = _community(c.state, name)
        if com.joined != c.body.joined:
            com.joined = c.body.joined
            com.members += 1 if c.body.joined else -1
        return {"message": f"{'Joined' if com.joined else 'Left'} r/{name}."}

    @r.read("/posts")
    def posts(c: Call) -> dict[str, Any]:
        got = listing(c.state, c.query)
        return {"posts": [summary(c.state, p) for p in got], "total": len(got)}

    @r.read("/posts/{pid}")
    def post(c: Call, pid: str) -> dict[str, Any]:
        p = st.find(c.state.posts, pid, "post")
        mod = _community(c.state, p.community).moderator
        if p.removed and not mod:
            raise LookupError(f"Post {pid} was removed by the moderators.")
        thread = [k.model_dump() for k in c.state.comments if k.post == pid]
        return {"post": summary(c.state, p), "comments": thread, "moderator": mod}

    @r.write("/posts", body=NewPost)
    def create_post(c: Call) -> dict[str, Any]:
        com = _community(c.state, c.body.community)
        fields = c.submitted(None, c.body.model_dump())
        p = Post(id=st.next_id(c.state.posts, "P-"), author=c.state.me, created=st.now(c.state), score=1,
                 my_vote=1, **{**fields, "community": com.name})  # fmt: skip
        c.state.posts.append(p)
        return {"message": f"Posted to r/{com.name}. Reference", "id": p.id}

    @r.write("/posts/{pid}/vote", body=VoteBody)
    def vote_post(c: Call, pid: str) -> dict[str, Any]:
        p = st.find(c.state.posts, pid, "post")
        _vote(p, c.body.dir)
        return {"score": p.score, "my_vote": p.my_vote}

    @r.write("/comments/{kid}/vote", body=VoteBody)
    def vote_comment(c: Call, kid: str) -> dict[str, Any]:
        k = st.find(c.state.comments, kid, "comment")
        _vote(k, c.body.dir)
        return {"score": k.score, "my_vote": k.my_vote}

    @r.write("/posts/{pid}/save", body=SaveBody)
    def save_post(c: Call, pid: str) -> dict[str, Any]:
        st.find(c.state.posts, pid, "post").saved = c.body.saved
        return {"message": "Post saved." if c.body.saved else "Post unsaved."}

    @r.write("/comments/{kid}/save", body=SaveBody)
    def save_comment(c: Call, kid: str) -> dict[str, Any]:
        st.find(c.state.comments, kid, "comment").saved = c.body.saved
        return {"message": "Comment saved." if c.body.saved else "Comment unsaved."}

    @r.write("/posts/{pid}/comments", body=NewComment)
    def comment(c: Call, pid: str) -> dict[str, Any]:
        p = st.find(c.state.posts, pid, "post")
        if p.locked:
            raise st.Rejected("This post is locked: no new comments.")
        if c.body.parent is not None and st.find(c.state.comments, c.body.parent, "comment").post != pid:
            raise st.Rejected(f"Comment {c.body.parent} is not on post {pid}.")
        fields = c.submitted(None, c.body.model_dump())
        k = Comment(id=st.next_id(c.state.comments, "K-"), post=pid, author=c.state.me, created=st.now(c.state),
                    score=1, my_vote=1, **fields)  # fmt: skip
        c.state.comments.append(k)
        return {"message": "Comment posted. Reference", "id": k.id}

    @r.read("/saved")
    def saved(c: Call) -> dict[str, Any]:
        return {
            "posts": [summary(c.state, p) for p in c.state.posts if p.saved],
            "comments": [k.model_dump() for k in c.state.comments if k.saved],
        }

    @r.read("/messages")
    def messages(c: Call) -> dict[str, Any]:
        folder = c.query.get("folder", "inbox")
        got = [m.model_dump() for m in reversed(c.state.messages) if m.folder == folder]
        return {
            "messages": got,
            "unread": sum(1 for m in c.state.messages if m.folder == "inbox" and not m.read),
        }

    @r.write("/messages/{mid}/read", body=LENIENT)
    def read_message(c: Call, mid: str) -> dict[str, Any]:
        st.find(c.state.messages, mid, "message").read = True
        return {}

    @r.write("/messages", body=NewMessage)
    def send(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        m = DirectMessage(id=st.next_id(c.state.messages, "M-"), folder="sent", sender=c.state.me,
                          recipient=fields["to"].removeprefix("u/"), subject=fields["subject"], body=fields["body"],
                          created=st.now(c.state), read=True)  # fmt: skip
        c.state.messages.append(m)
        return {"message": f"Message sent to u/{m.recipient}. Reference", "id": m.id}

    @r.write("/posts/{pid}/mod", body=ModBody)
    def mod_post(c: Call, pid: str) -> dict[str, Any]:
        p = st.find(c.state.posts, pid, "post")
        _moderate(c, p.community, c.body.action, pid, c.body.reason)
        flag, value = {"remove": ("removed", True), "approve": ("removed", False), "lock": ("locked", True),
                       "unlock": ("locked", False), "pin": ("pinned", True), "unpin": ("pinned", False)}[c.body.action]  # fmt: skip
        setattr(p, flag, value)
        return {"message": f"Post {pid}: {c.body.action} done."}

    @r.write("/comments/{kid}/mod", body=ModBody)
    def mod_comment(c: Call, kid: str) -> dict[str, Any]:
        k = st.find(c.state.comments, kid, "comment")
        if c.body.action not in ("remove", "approve"):
            raise st.Rejected("A comment can be removed or approved.")
        _moderate(c, st.find(c.state.posts, k.post, "post").community, c.body.action, kid, c.body.reason)
        k.removed = c.body.action == "remove"
        return {"message": f"Comment {kid}: {c.body.action} done."}
