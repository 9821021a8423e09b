"""The mail client's typed state: messages in folders, grouped in threads, with labels,
read/unread, stars and attachments; the labels and the address book beside them.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each
message, label and contact as an entity. `labels` on a message is kept sorted by the server,
so equal changes give equal diffs whatever order a page sent them in.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import AppState

Folder = Literal["inbox", "sent", "archive", "spam", "trash"]
FOLDERS: tuple[tuple[str, str], ...] = (
    ("inbox", "Inbox"),
    ("sent", "Sent"),
    ("archive", "Archive"),
    ("spam", "Spam"),
    ("trash", "Trash"),
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Attachment(_Strict):
    name: str
    size_kb: int = Field(ge=1)
    kind: str  # pdf | xlsx | jpg | docx | zip | ics


class Message(_Strict):
    id: str  # M-0001
    thread: str  # T-001
    folder: Folder = "inbox"
    sender: str  # a display name ("Me" for sent mail)
    sender_email: str
    to: str  # the recipient's address
    subject: str = Field(min_length=1, max_length=200)
    body: str = Field(min_length=1, max_length=4000)
    date: str  # ISO timestamp, UTC
    read: bool = False
    starred: bool = False
    labels: list[str] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    in_reply_to: str | None = None
    forward_of: str | None = None
    created: str
    updated: str


class Label(_Strict):
    id: str  # the slug a message carries
    name: str
    color: str


class Contact(_Strict):
    id: str
    name: str
    email: str


class MailState(AppState):
    messages: list[Message] = Field(default_factory=list)
    labels: list[Label] = Field(default_factory=list)
    contacts: list[Contact] = Field(default_factory=list)
    me: str = "analyst@portal.example"
