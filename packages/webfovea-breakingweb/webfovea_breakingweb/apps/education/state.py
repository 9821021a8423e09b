"""The education site's typed state (a Canvas-like learning management system, seen by one
student): courses with their modules and module items, assignments and your submissions
(every attempt its own record, with the grader's score and the comments on it), discussions
and their threaded entries, announcements, calendar events, to-do notes and the files you
can hand in.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each
attempt, entry, comment, event and note as an entity. A resubmission is a new attempt record,
never an edit of the old one, as an LMS keeps the submission history.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

Kind = Literal["text", "upload"]
Group = Literal["Homework", "Quizzes", "Essays", "Exams"]
ItemKind = Literal["page", "assignment", "discussion", "file"]
DATE = r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"
TIME = r"^([01]\d|2[0-3]):[0-5]\d$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Course(_Strict):
    id: str  # C-0001
    code: str  # BIO 201
    name: str
    term: str
    instructor: str
    favorite: bool = False  # starred: shown first on the dashboard
    color: str = "#2d6a9f"


class Module(_Strict):
    id: str  # MD-0001
    course: str
    title: str
    position: int = Field(ge=1)


class ModuleItem(_Strict):
    id: str  # MI-0001
    module: str
    course: str
    title: str
    kind: ItemKind
    ref: str = ""  # the assignment or discussion it opens (empty: a page or file)
    done: bool = False  # "Mark as done"


class Assignment(_Strict):
    id: str  # A-0001
    course: str
    title: str = Field(min_length=3, max_length=200)
    group: Group
    description: str
    due: str  # ISO timestamp
    points: int = Field(ge=1)
    types: list[Kind] = Field(min_length=1)
    attempts: int = Field(ge=1)  # attempts allowed
    dismissed: bool = False  # taken off your to-do list


class Submission(_Strict):
    id: str  # S-0001
    assignment: str
    attempt: int = Field(ge=1)
    kind: Kind
    body: str = Field(default="", max_length=20000)
    file: str = ""  # the file's name (an upload)
    submitted: str
    late: bool = False
    score: float | None = None  # None: not graded yet


class SubmissionComment(_Strict):
    id: str  # SC-0001
    submission: str
    author: str
    body: str = Field(min_length=1, max_length=2000)
    created: str


class Topic(_Strict):
    id: str  # D-0001
    course: str
    title: str = Field(min_length=3, max_length=200)
    author: str
    body: str = Field(min_length=1, max_length=10000)
    created: str
    pinned: bool = False
    subscribed: bool = False


class Entry(_Strict):
    id: str  # E-0001
    topic: str
    parent: str | None = None  # the entry answered (None: a reply to the topic)
    author: str
    body: str = Field(min_length=1, max_length=10000)
    created: str
    likes: int = Field(ge=0)
    liked: bool = False  # your like (counted in `likes`)


class Announcement(_Strict):
    id: str  # N-0001
    course: str
    title: str
    author: str
    body: str
    posted: str
    read: bool = False


class Event(_Strict):
    id: str  # EV-0001
    title: str = Field(min_length=1, max_length=120)
    date: str = Field(pattern=DATE)
    time: str = Field(default="", pattern=r"^$|" + TIME)
    course: str = ""  # a course's id, or "" for your personal calendar
    notes: str = Field(default="", max_length=2000)


class Note(_Strict):
    id: str  # T-0001
    title: str = Field(min_length=1, max_length=120)
    date: str = Field(pattern=DATE)
    course: str = ""
    done: bool = False


class File(_Strict):
    id: str  # F-0001
    name: str
    size_kb: int = Field(ge=1)


class EducationState(EnvState):
    me: str = "Jordan Reyes"  # the student signed in (author of what you write)
    courses: list[Course] = Field(default_factory=list)
    modules: list[Module] = Field(default_factory=list)
    items: list[ModuleItem] = Field(default_factory=list)
    assignments: list[Assignment] = Field(default_factory=list)
    submissions: list[Submission] = Field(default_factory=list)
    comments: list[SubmissionComment] = Field(default_factory=list)
    topics: list[Topic] = Field(default_factory=list)
    entries: list[Entry] = Field(default_factory=list)
    announcements: list[Announcement] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    files: list[File] = Field(default_factory=list)
