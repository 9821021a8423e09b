"""The education site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): starring a
course, reading an announcement, dismissing a to-do, marking a module item done, subscribing
to and liking in a discussion, commenting on graded work, to-do notes, replies, submissions
(text entry, upload, a new attempt), new discussions and calendar events.

Each instance names its records by title (titles are unique on the site) and an entry by its
author (who wrote only that one in the discussion), so the truth is unambiguous; obligations
name every change; anything else that changes breaks an invariant. The readback holds only
when the backend holds the change, on `verify_path` after a fresh load."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.education import plans as p
from webfovea_breakingweb.apps.education.common import (
    API,
    by_unique_author,
    code,
    create,
    graded,
    make,
    open_work,
    topics_with_entry,
    update,
    write_targets,
)
from webfovea_breakingweb.apps.education.state import EducationState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

PER_TEMPLATE = 5
REPLIES = (
    "I found the same thing in the lab last week.", "Thanks, your example made it click for me.",
    "I see it differently: the reading argues the opposite.", "Could you say more about your second point?",
    "This connects well with the lecture on Monday.",
)  # fmt: skip
COMMENTS = ("Thank you for the feedback, I will fix the second part.", "Could we talk about question 3 in office hours?",
            "I have added the missing citations.")  # fmt: skip
ANSWERS = ("My answers are attached below, with the working shown.", "Summary: the key result holds in both cases.",
           "I worked through all parts; see the final table.")  # fmt: skip
TOPICS = (("Study group for the final", "Anyone want to meet in the library on Thursdays?"),
          ("Question about the grading", "Are late submissions graded with a penalty?"),
          ("Useful videos for this module", "I found two short videos that explain it well."))  # fmt: skip
EVENTS = (
    ("Group project meeting", "16:00"),
    ("Exam review session", "18:30"),
    ("Tutor appointment", "11:00"),
)
NOTES = ("Print the lab handout", "Email the study group", "Review lecture notes")
DAYS = tuple(f"2025-01-{d:02d}" for d in range(13, 29))  # inside the calendar's opening month
SOON = tuple(f"2025-01-{d:02d}" for d in range(7, 13))


def course_label(state: EducationState, cid: str) -> str:
    c = next(x for x in state.courses if x.id == cid)
    return f"{c.code} {c.name}"


def t_favorite(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    c = r.choice([x for x in state.courses if not x.favorite])
    button = f"{p.card(c.id)} .fav"
    plan = [click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))]
    return make("favorite", n, f"add the course “{c.name}” ({c.code}, {c.term}) to your favorites from the dashboard.",
                plan, [update("courses", c.id, favorite=True)],
                {**write_targets(f"{API}/courses/{c.id}/favorite", plan, button, visible(L(f'{button}[aria-pressed="true"]')),
                                 "/", listing=f"{API}/dashboard"),
                 "decoy_of": c.id, "decoy": {"term": "Fall 2024"}})  # fmt: skip


def t_read_announcement(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice([x for x in state.announcements if not x.read])
    other = r.choice(sorted(c.id for c in state.courses if c.id != a.course))
    plan = [
        click(L("#nav-announcements"), expect=visible(L(f'.ann[data-id="{a.id}"]'))),
        p.open_announcement(a.id),
    ]
    return make("read-announcement", n, f"open and read the announcement “{a.title}” from {a.author}.", plan,
                [update("announcements", a.id, read=True)],
                {**write_targets(f"{API}/announcements/{a.id}/read", plan, f'.ann[data-id="{a.id}"] a.title',
                                 visible(L(f'.ann[data-id="{a.id}"].read')), "/announcements", listing=f"{API}/announcements"),
                 "decoy_of": a.id, "decoy": {"course": other, "author": "Teaching Office"}})  # fmt: skip


def t_dismiss(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice(open_work(state, "text") + open_work(state, "upload"))
    other = r.choice(sorted(c.id for c in state.courses if c.id != a.course))
    button = f'#todo-list li[data-id="{a.id}"] .dismiss'
    plan = [click(L(button), expect=text_has(L("#toast"), "removed from your to-do list"))]
    return make("dismiss-todo", n, f"remove “{a.title}” ({code(state, a.course)}) from the to-do list on your dashboard.",
                plan, [update("assignments", a.id, dismissed=True)],
                {**write_targets(f"{API}/assignments/{a.id}/dismiss", plan, button, visible(L(f'#dismissed li[data-id="{a.id}"]')),
                                 "/todo", listing=f"{API}/dashboard"),
                 "decoy_of": a.id, "decoy": {"course": other}})  # fmt: skip


def t_item_done(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    item = r.choice([i for i in state.items if not i.done])
    plan = [p.open_course(item.course), p.mark_done(item.id)]
    button = f'.item[data-id="{item.id}"] .done'
    return make("item-done", n, f"in {code(state, item.course)}, mark the module item “{item.title}” as done.", plan,
                [update("items", item.id, done=True)],
                write_targets(f"{API}/items/{item.id}/done", plan, button, visible(L(f'{button}[aria-pressed="true"]')),
                              f"/courses/{item.course}", listing=f"{API}/courses/{item.course}"))  # fmt: skip


def t_subscribe(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice([x for x in state.topics if not x.subscribed])
    plan = [*p.to_topic(t.course, t.id), p.subscribe()]
    return make("subscribe", n, f"subscribe to the discussion “{t.title}” in {code(state, t.course)}.", plan,
                [update("topics", t.id, subscribed=True)],
                write_targets(f"{API}/discussions/{t.id}/subscribe", plan, "#subscribe",
                              visible(L('#subscribe[aria-pressed="true"]')), f"/discussions/{t.id}",
                              listing=f"{API}/discussions/{t.id}"))  # fmt: skip


def t_like(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(topics_with_entry(state))
    e = r.choice(by_unique_author(state, t.id))
    plan = [*p.to_topic(t.course, t.id), p.like(e.id)]
    button = f"{p.entry(e.id)} .like"
    return make("like-entry", n, f"in the discussion “{t.title}” ({code(state, t.course)}), like {e.author}'s reply.", plan,
                [update("entries", e.id, liked=True, likes=e.likes + 1)],
                write_targets(f"{API}/entries/{e.id}/like", plan, button, visible(L(f'{button}[aria-pressed="true"]')),
                              f"/discussions/{t.id}", listing=f"{API}/discussions/{t.id}"))  # fmt: skip


def t_feedback(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    a, sid = r.choice(graded(state))
    text, kid = r.choice(COMMENTS), next_id(state.comments, "SC-")
    plan = [
        p.open_course(a.course),
        p.tab("grades", "#grades"),
        p.open_assignment(a.id, "grades"),
        *p.comment(text, kid),
    ]
    return make("feedback-comment", n, f"open your grade for “{a.title}” in {code(state, a.course)} and comment “{text}” on the graded submission.",
                plan, [create("comments", submission=sid, author=state.me, body=text)],
                write_targets(f"{API}/submissions/{sid}/comments", plan, "#comment-send", visible(L(f'#comments li[data-id="{kid}"]')),
                              f"/assignments/{a.id}", listing=f"{API}/assignments/{a.id}", form=True))  # fmt: skip


def t_note(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    c = r.choice(state.courses)
    title, day, tid = r.choice(NOTES), r.choice(DAYS), next_id(state.notes, "T-")
    plan = p.new_note(title, day, course_label(state, c.id), c.id, tid)
    return make("todo-note", n, f"add a to-do “{title}” for {day}, linked to the course {c.code}.", plan,
                [create("notes", title=title, date=day, course=c.id, done=False)],
                write_targets(f"{API}/notes", plan, "#note-add", visible(L(f'#notes li[data-id="{tid}"]')), "/todo",
                              listing=f"{API}/todo", form=True))  # fmt: skip


def t_reply_topic(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(state.topics)
    text, eid = r.choice(REPLIES), next_id(state.entries, "E-")
    plan = [*p.to_topic(t.course, t.id), *p.reply_topic(text, eid)]
    return make("reply-topic", n, f"reply “{text}” to the discussion “{t.title}” in {code(state, t.course)}.", plan,
                [create("entries", topic=t.id, parent=None, author=state.me, body=text)],
                write_targets(f"{API}/discussions/{t.id}/entries", plan, "#reply-send", visible(L(f'.entry[data-id="{eid}"]')),
                              f"/discussions/{t.id}", listing=f"{API}/discussions/{t.id}", form=True))  # fmt: skip


def _submission(
    state: EducationState, template: str, n: int, a: Any, kind: str, content: str, attempt: int
) -> StatefulTask:
    sid = next_id(state.submissions, "S-")
    plan = [*p.to_assignment(a.course, a.id), *p.submit(kind, content, sid)]
    how = f"the text entry “{content}”" if kind == "text" else f"an upload of your file {content}"
    what = "a new attempt at" if attempt > 1 else "your work for"
    fields = {"body": content} if kind == "text" else {"file": content}
    return make(template, n, f"submit {what} “{a.title}” in {code(state, a.course)} as {how}.", plan,
                [create("submissions", assignment=a.id, attempt=attempt, kind=kind, **fields)],
                write_targets(f"{API}/assignments/{a.id}/submissions", plan, "#submit-go",
                              visible(L(f'#attempts li[data-id="{sid}"]')), f"/assignments/{a.id}",
                              listing=f"{API}/assignments/{a.id}", form=True))  # fmt: skip


def t_submit_text(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    return _submission(
        state, "submit-text", n, r.choice(open_work(state, "text")), "text", r.choice(ANSWERS), 1
    )


def t_submit_upload(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice(open_work(state, "upload"))
    return _submission(state, "submit-upload", n, a, "upload", r.choice(state.files).name, 1)


def t_resubmit(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    return _submission(
        state, "resubmit", n, r.choice(open_work(state, "text", started=True)), "text", r.choice(ANSWERS), 2
    )


def t_reply_entry(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(topics_with_entry(state))
    e = r.choice(by_unique_author(state, t.id))
    text, eid = r.choice(REPLIES), next_id(state.entries, "E-")
    plan = [*p.to_topic(t.course, t.id), *p.reply_entry(e.id, text, eid)]
    return make("reply-entry", n, f"in the discussion “{t.title}” ({code(state, t.course)}), reply “{text}” to {e.author}'s post.",
                plan, [create("entries", topic=t.id, parent=e.id, author=state.me, body=text)],
                write_targets(f"{API}/discussions/{t.id}/entries", plan, ".reply-send",
                              visible(L(f'.entry[data-id="{e.id}"] .entry[data-id="{eid}"]')), f"/discussions/{t.id}",
                              listing=f"{API}/discussions/{t.id}", form=True))  # fmt: skip


def t_new_topic(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    c = r.choice(state.courses)
    (title, body), did = r.choice(TOPICS), next_id(state.topics, "D-")
    plan = [p.open_course(c.id), p.tab("discussions", "#topics"), *p.new_topic(title, body, did)]
    return make("new-topic", n, f"start a discussion in {c.code} titled “{title}” with the text “{body}”.", plan,
                [create("topics", course=c.id, title=title, body=body, author=state.me)],
                write_targets(f"{API}/courses/{c.id}/discussions", plan, "#topic-post", visible(L(f'#topics .topic[data-id="{did}"]')),
                              f"/courses/{c.id}/discussions", listing=f"{API}/courses/{c.id}/discussions", form=True))  # fmt: skip


def t_event(state: EducationState, r: random.Random, n: int) -> StatefulTask:
    # Days 7-12: a day-month swap (server/save_drift) is still a date, in another month.
    (title, time), day, eid = r.choice(EVENTS), r.choice(SOON), next_id(state.events, "EV-")
    c = r.choice([None, *state.courses])
    cid = c.id if c else ""
    plan = p.new_event(title, day, time, course_label(state, cid) if c else "", cid, eid)
    where = f" for {c.code}" if c else " on your personal calendar"
    return make("calendar-event", n, f"add a calendar event “{title}” on {day} at {time}{where}.", plan,
                [create("events", title=title, date=day, time=time, course=cid)],
                {**write_targets(f"{API}/events", plan, "#event-save", visible(L(f'#calendar li[data-id="{eid}"]')), "/calendar",
                                 listing=f"{API}/calendar", form=True),
                 "drift": {"field": "date", "kind": "swap_day_month", "value": day, "input": "#event-date",
                           "edit_row": f'#calendar li[data-id="{eid}"] .edit'}})  # fmt: skip


TEMPLATES = {
    "favorite": t_favorite, "read-announcement": t_read_announcement, "dismiss-todo": t_dismiss, "item-done": t_item_done,
    "subscribe": t_subscribe, "like-entry": t_like, "feedback-comment": t_feedback, "todo-note": t_note,
    "reply-topic": t_reply_topic, "submit-text": t_submit_text, "submit-upload": t_submit_upload, "resubmit": t_resubmit,
    "reply-entry": t_reply_entry, "new-topic": t_new_topic, "calendar-event": t_event,
}  # fmt: skip
