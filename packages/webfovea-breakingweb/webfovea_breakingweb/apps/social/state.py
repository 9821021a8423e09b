"""The social site's typed state (a Reddit-like forum): communities you may join and moderate,
posts in them, nested comments, your votes and saved items, private messages, and the
moderation log your actions write.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each post,
comment, message and log entry as an entity. Scores are the other users' votes plus yours
(`my_vote`), so a vote changes two fields of one record and nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

Vote = Literal[-1, 0, 1]
ModAction = Literal["remove", "approve", "lock", "unlock", "pin", "unpin"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Community(_Strict):
    id: str  # C-0001
    name: str  # the slug shown as r/<name>
    title: str
    description: str
    members: int = Field(ge=0)
    joined: bool = False
    moderator: bool = False  # you moderate it: its posts and comments show moderation actions
    rules: list[str] = Field(default_factory=list)


class Post(_Strict):
    id: str  # P-0001
    community: str  # the community's name
    author: str
    title: str = Field(min_length=3, max_length=300)
    body: str = Field(default="", max_length=10000)
    flair: str = ""
    created: str
    score: int
    my_vote: Vote = 0
    saved: bool = False
    removed: bool = False
    locked: bool = False
    pinned: bool = False


class Comment(_Strict):
    id: str  # K-0001
    post: str
    parent: str | None = None  # the comment answered (None: a top-level comment)
    author: str
    body: str = Field(min_length=1, max_length=10000)
    created: str
    score: int
    my_vote: Vote = 0
    saved: bool = False
    removed: bool = False


class DirectMessage(_Strict):
    id: str  # M-0001
    folder: Literal["inbox", "sent"]
    sender: str
    recipient: str
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)
    created: str
    read: bool = False


class ModLogEntry(_Strict):
    id: str  # L-0001
    community: str
    action: ModAction
    target: str  # a post or comment id
    reason: str = Field(default="", max_length=200)
    created: str


class SocialState(EnvState):
    me: str = "quiet_otter"  # your user name (authors of what you write)
    communities: list[Community] = Field(default_factory=list)
    posts: list[Post] = Field(default_factory=list)
    comments: list[Comment] = Field(default_factory=list)
    messages: list[DirectMessage] = Field(default_factory=list)
    modlog: list[ModLogEntry] = Field(default_factory=list)
