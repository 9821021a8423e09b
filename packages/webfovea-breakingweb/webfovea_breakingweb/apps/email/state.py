"""The email site's typed state (a Gmail-like mailbox): your labels, conversations (threads)
with the flags a mail client keeps per conversation — in the inbox or archived, starred,
read, trashed, its labels — the messages in them, and your drafts.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each
conversation, message, draft and label as an entity: archiving is one field of one thread, a
reply is one created message, sending a draft deletes the draft and creates its message.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

ME = "Robin Hale"
MY_ADDRESS = "robin.hale@pinemail.example"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Label(_Strict):
    id: str  # G-0001
    name: str = Field(min_length=1, max_length=40)
    color: str = "#5f6368"


class Thread(_Strict):
    """One conversation. `correspondent` is the other party the list shows; `last` the time of
    its newest message (the lists sort by it)."""

    id: str  # T-0001
    subject: str = Field(min_length=1, max_length=200)
    correspondent: str
    last: str
    labels: list[str] = Field(default_factory=list)  # label names
    inbox: bool = True  # False: archived (still in All mail)
    starred: bool = False
    read: bool = False
    trashed: bool = False


class Message(_Strict):
    id: str  # E-0001
    thread: str
    sender_name: str
    sender: str  # an address
    to: str = Field(min_length=3, max_length=300)
    cc: str = Field(default="", max_length=300)
    subject: str = Field(min_length=1, max_length=200)
    body: str = Field(default="", max_length=20000)
    created: str
    forwarded: str | None = None  # the message this one forwards (quoted below its body)


class Draft(_Strict):
    id: str  # D-0001
    to: str = Field(default="", max_length=300)
    cc: str = Field(default="", max_length=300)
    subject: str = Field(default="", max_length=200)
    body: str = Field(default="", max_length=20000)
    saved: str


class Contact(_Strict):
    id: str  # P-0001
    name: str
    address: str


class EmailState(EnvState):
    me: str = ME
    address: str = MY_ADDRESS
    contacts: list[Contact] = Field(default_factory=list)
    labels: list[Label] = Field(default_factory=list)
    threads: list[Thread] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)
    drafts: list[Draft] = Field(default_factory=list)
