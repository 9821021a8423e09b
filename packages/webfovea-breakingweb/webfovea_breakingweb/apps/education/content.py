"""The term a seed starts with: 8 courses of one student, each with 4 modules, 7 assignments
(the past ones submitted and mostly graded, the coming ones on the to-do list), 3 discussions
with threaded entries, 3 announcements; a few calendar events, to-do notes and the files the
student can hand in.

Deterministic by the generator the engine hands over (`rng("app:education", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the
content the server serves. Every assignment, discussion and announcement title carries its
course's own subject, so each is unique on the site; times count from the sites' epoch
(Monday 2025-01-06 09:00), due dates at 23:59.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.education.state import (
    Announcement,
    Assignment,
    Course,
    EducationState,
    Entry,
    Event,
    File,
    Module,
    ModuleItem,
    Note,
    Submission,
    SubmissionComment,
    Topic,
)
from webfovea_breakingweb.engine.determinism import stamp

TERM = "Spring 2025"
# code, name, instructor, colour, six subjects (modules and assignments are named after them)
COURSES = (
    ("BIO 201", "Cell Biology", "Dr. Amara Osei", "#2e7d32", ("Membranes", "Mitosis", "Enzymes", "Respiration", "Photosynthesis", "Signalling")),
    ("HIST 110", "World History since 1500", "Prof. Daniel Kovac", "#8d4a2b", ("Empires", "Revolutions", "Trade Routes", "Industrialisation", "Colonialism", "Cold War")),
    ("MATH 221", "Linear Algebra", "Dr. Lena Fischer", "#3949ab", ("Vector Spaces", "Matrices", "Determinants", "Eigenvalues", "Orthogonality", "Linear Maps")),
    ("ENG 205", "Creative Writing", "Prof. Marisol Ortega", "#ad1457", ("Point of View", "Dialogue", "Setting", "Flash Fiction", "Revision", "Poetic Form")),
    ("CS 150", "Introduction to Programming", "Dr. Priya Raman", "#00838f", ("Variables", "Loops", "Functions", "Recursion", "Lists", "Testing")),
    ("PSY 101", "Introduction to Psychology", "Dr. Thomas Berg", "#6a1b9a", ("Perception", "Memory", "Learning", "Motivation", "Development", "Social Influence")),
    ("CHEM 120", "General Chemistry", "Dr. Yusuf Adeyemi", "#ef6c00", ("Stoichiometry", "Gas Laws", "Bonding", "Equilibrium", "Acids and Bases", "Kinetics")),
    ("ECON 102", "Principles of Macroeconomics", "Prof. Hannah Lindqvist", "#546e7a", ("GDP", "Inflation", "Unemployment", "Monetary Policy", "Fiscal Policy", "Exchange Rates")),
)  # fmt: skip
FAVORITES = 2  # the first two courses start starred
CLASSMATES = (
    "Maya Chen", "Liam O'Brien", "Sofia Rossi", "Noah Williams", "Aisha Khan", "Ethan Park",
    "Zoe Martin", "Lucas Silva", "Hana Sato", "Omar Haddad", "Ella Novak", "Ben Carter",
)  # fmt: skip
# (group, title form, points, types, attempts)
WORK = (
    ("Homework", "Homework {n}: {s}", 20, ("text", "upload"), 3),
    ("Quizzes", "Quiz {n}: {s}", 10, ("text",), 1),
    ("Essays", "Essay {n}: {s}", 50, ("upload",), 2),
    ("Exams", "Midterm Review: {s}", 100, ("text", "upload"), 1),
)
ENTRY_TEXTS = (
    "I think the reading makes this clearer than the lecture did.", "Does anyone have notes from Tuesday?",
    "Good point, I had not thought of it that way.", "The example on slide 12 helped me a lot.",
    "I disagree a little: the second case is different.", "Could the instructor confirm the deadline?",
    "Here is how I approached it, step by step.", "Thanks, this cleared it up for me.",
)  # fmt: skip
FEEDBACK = ("Good work, see my notes in the margin.", "Clear structure; cite your sources next time.",
            "Check the second part again.", "Excellent, well argued.")  # fmt: skip
ANNOUNCE = (
    ("Office hours moved: {s}", "Office hours this week move to Thursday 14:00 because of the {s} review."),
    ("Reading for the {s} module", "Please read chapter 4 before we start {s}."),
    ("Lab groups for {s}", "Lab groups for {s} are posted in the Files area."),
)  # fmt: skip
FILES = ("lab-report-draft.pdf", "essay-final.docx", "problem-set-scan.pdf", "notes-week2.pdf",
         "code-project.zip", "reflection.docx", "data-analysis.xlsx", "presentation.pptx")  # fmt: skip
DAY = 24 * 60
DUE = 899  # 23:59 on the day (the epoch is 09:00)


def _course_work(state: EducationState, r: random.Random, cid: str, subjects: tuple[str, ...]) -> None:
    """Modules with their items, and the course's assignments with past submissions."""
    work: list[tuple[int, tuple[str, str, int, tuple[str, ...], int], str]] = []
    for n, s in enumerate(subjects[:4], start=1):
        work.append((n, WORK[0], s))
    work += [(1, WORK[1], subjects[4]), (1, WORK[2], subjects[5]), (1, WORK[3], subjects[0])]
    for i, (n, (group, form, points, types, attempts), s) in enumerate(work):
        day = -16 + i * 6 + r.randint(0, 3)  # spread over the term: some past, some to come
        aid = f"A-{len(state.assignments) + 1:04d}"
        state.assignments.append(
            Assignment(id=aid, course=cid, title=form.format(n=n, s=s), group=group,  # type: ignore[arg-type]
                       description=f"Work through the {s} material and hand in your answers.",
                       due=stamp(day * DAY + DUE), points=points, types=list(types), attempts=attempts)  # type: ignore[arg-type]
        )  # fmt: skip
        if day < 0 and r.random() < 0.8:  # handed in before the deadline; graded unless the last week
            graded = day < -5
            sub = Submission(id=f"S-{len(state.submissions) + 1:04d}", assignment=aid, attempt=1, kind=types[0],  # type: ignore[arg-type]
                             body=f"My answers on {s}." if types[0] == "text" else "",
                             file=r.choice(FILES) if types[0] == "upload" else "",
                             submitted=stamp((day - 1) * DAY + 600),
                             score=round(points * r.uniform(0.6, 1.0), 1) if graded else None)  # fmt: skip
            state.submissions.append(sub)
            if graded and r.random() < 0.7:
                state.comments.append(
                    SubmissionComment(id=f"SC-{len(state.comments) + 1:04d}", submission=sub.id,
                                      author=state.courses[-1].instructor, body=r.choice(FEEDBACK),
                                      created=stamp((day + 2) * DAY))
                )  # fmt: skip
    by_title = {a.title: a.id for a in state.assignments if a.course == cid}
    for pos, s in enumerate(subjects[:4], start=1):
        mid = f"MD-{len(state.modules) + 1:04d}"
        state.modules.append(Module(id=mid, course=cid, title=f"Module {pos}: {s}", position=pos))
        rows = [(f"{s}: overview", "page", ""), (f"{s} lecture slides", "file", ""),
                (f"{s} reading", "page", ""), (f"Homework {pos}: {s}", "assignment", by_title[f"Homework {pos}: {s}"])]  # fmt: skip
        for title, kind, ref in rows[: 3 + (pos % 2)] if pos != 1 else rows:
            state.items.append(
                ModuleItem(id=f"MI-{len(state.items) + 1:04d}", module=mid, course=cid, title=title,
                           kind=kind, ref=ref, done=pos == 1 and kind != "assignment" and r.random() < 0.5)  # type: ignore[arg-type]
            )  # fmt: skip


def _discussions(
    state: EducationState, r: random.Random, cid: str, subjects: tuple[str, ...], who: str
) -> None:
    for n, s in enumerate(r.sample(subjects, 3), start=1):
        did = f"D-{len(state.topics) + 1:04d}"
        when = -r.randint(2, 20) * DAY
        state.topics.append(
            Topic(
                id=did,
                course=cid,
                title=f"Week {n} discussion: {s}",
                author=who,
                pinned=n == 1,
                body=f"What surprised you most about {s}? Reply with one example and answer one classmate.",
                created=stamp(when),
            )  # fmt: skip
        )
        made: list[Entry] = []
        for k in range(r.randint(3, 7)):
            parent = r.choice(made) if made and r.random() < 0.4 else None
            e = Entry(id=f"E-{len(state.entries) + 1:04d}", topic=did, parent=parent.id if parent else None,
                      author=r.choice(CLASSMATES), body=r.choice(ENTRY_TEXTS), created=stamp(when + (k + 1) * 90),
                      likes=r.randint(0, 9))  # fmt: skip
            made.append(e)
            state.entries.append(e)


def build(r: random.Random, seed: int) -> EducationState:
    state = EducationState()
    for i, (code, name, who, color, subjects) in enumerate(COURSES, start=1):
        cid = f"C-{i:04d}"
        state.courses.append(Course(id=cid, code=code, name=name, term=TERM, instructor=who,
                                    favorite=i <= FAVORITES, color=color))  # fmt: skip
        _course_work(state, r, cid, subjects)
        _discussions(state, r, cid, subjects, who)
        for k, (title, body) in enumerate(r.sample(ANNOUNCE, 3)):
            s = subjects[k + 1]
            state.announcements.append(
                Announcement(
                    id=f"N-{len(state.announcements) + 1:04d}",
                    course=cid,
                    title=f"{code}: " + title.format(s=s),
                    author=who,
                    body=body.format(s=s),
                    posted=stamp(-r.randint(1, 12) * DAY - k * 60),
                    read=r.random() < 0.4,
                )  # fmt: skip
            )
    state.announcements.sort(key=lambda a: (a.posted, a.id), reverse=True)
    for i, (title, day, time, course) in enumerate(
        (("Study group", 2, "17:00", ""), ("Career fair", 9, "10:00", ""), ("Lab safety briefing", 3, "13:00", "C-0007"),
         ("Dentist", 5, "08:30", ""), ("Guest lecture", 11, "15:00", "C-0002")), start=1):  # fmt: skip
        state.events.append(
            Event(id=f"EV-{i:04d}", title=title, date=stamp(day * DAY)[:10], time=time, course=course)
        )
    state.notes = [Note(id="T-0001", title="Buy lab goggles", date=stamp(1 * DAY)[:10], course="C-0007"),
                   Note(id="T-0002", title="Return library books", date=stamp(4 * DAY)[:10])]  # fmt: skip
    state.files = [
        File(id=f"F-{i:04d}", name=n, size_kb=r.randint(40, 4000)) for i, n in enumerate(FILES, start=1)
    ]
    state.counter = len(state.submissions) + len(state.entries) + len(state.comments)
    # The legend seed/split_information shows when the pages name courses by code only.
    state.units = [{"id": c.code, "name": c.name} for c in state.courses]
    return state
