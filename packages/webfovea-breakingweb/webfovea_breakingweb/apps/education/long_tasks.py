"""The education site's long task templates, tiers T4 and T5: catching up on one course, a
day in a discussion, a week's plan across courses, the start of a term. Their main write (the
one the families aim at) is the last; a redo starts at that write's own steps."""

from __future__ import annotations

import random

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
from webfovea_breakingweb.apps.education.tasks import (
    ANSWERS,
    COMMENTS,
    DAYS,
    EVENTS,
    NOTES,
    REPLIES,
    TOPICS,
    course_label,
)
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

PER_TEMPLATE = 6


def t_catch_up(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    """Read the course's announcement, mark two module items done, hand in a text entry."""
    a = r.choice(open_work(state, "text"))
    news = [x for x in state.announcements if x.course == a.course and not x.read]
    items = [i for i in state.items if i.course == a.course and not i.done]
    if not news or len(items) < 2:
        return None
    ann, (i1, i2) = r.choice(news), r.sample(items, 2)
    text, sid = r.choice(ANSWERS), next_id(state.submissions, "S-")
    plan = [click(L("#nav-announcements"), expect=visible(L(f'.ann[data-id="{ann.id}"]'))), p.open_announcement(ann.id),
            p.dashboard(), p.open_course(a.course), p.mark_done(i1.id), p.mark_done(i2.id), p.tab("assignments", "#assignments"),
            p.open_assignment(a.id)]  # fmt: skip
    start = len(plan)
    plan += p.submit("text", text, sid)
    return make("catch-up", n, f"catch up on {code(state, a.course)}: read the announcement “{ann.title}”, mark “{i1.title}” and "
                f"“{i2.title}” as done, then submit “{a.title}” as the text entry “{text}”.", plan,
                [update("announcements", ann.id, read=True), update("items", i1.id, done=True), update("items", i2.id, done=True),
                 create("submissions", assignment=a.id, attempt=1, kind="text", body=text)],
                write_targets(f"{API}/assignments/{a.id}/submissions", plan, "#submit-go", visible(L(f'#attempts li[data-id="{sid}"]')),
                              f"/assignments/{a.id}", listing=f"{API}/assignments/{a.id}", redo_from=start, form=True))  # fmt: skip


def t_discussion_day(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    """Subscribe to a discussion, like a reply, answer it, and put the follow-up in the calendar."""
    t = r.choice(topics_with_entry(state))
    e = r.choice(by_unique_author(state, t.id))
    text, eid = r.choice(REPLIES), next_id(state.entries, "E-")
    (title, time), day, evid = r.choice(EVENTS), r.choice(DAYS), next_id(state.events, "EV-")
    plan = [*p.to_topic(t.course, t.id), p.subscribe(), p.like(e.id), *p.reply_entry(e.id, text, eid)]
    start = len(plan)
    plan += p.new_event(title, day, time, "", "", evid)
    return make("discussion-day", n, f"in the discussion “{t.title}” ({code(state, t.course)}): subscribe to it, like "
                f"{e.author}'s post and reply “{text}” to it; then add “{title}” on {day} at {time} to your personal calendar.", plan,
                [update("topics", t.id, subscribed=True), update("entries", e.id, liked=True, likes=e.likes + 1),
                 create("entries", topic=t.id, parent=e.id, author=state.me, body=text),
                 create("events", title=title, date=day, time=time, course="")],
                write_targets(f"{API}/events", plan, "#event-save", visible(L(f'#calendar li[data-id="{evid}"]')), "/calendar",
                              listing=f"{API}/calendar", redo_from=start, form=True))  # fmt: skip


def t_week_plan(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    """Read an announcement, answer a grader's feedback, hand in an upload, note a to-do."""
    ann = r.choice([x for x in state.announcements if not x.read])
    g, gsid = r.choice(graded(state))
    up = r.choice(open_work(state, "upload"))
    comment, kid, sid = r.choice(COMMENTS), next_id(state.comments, "SC-"), next_id(state.submissions, "S-")
    f = r.choice(state.files).name
    note, day, tid = r.choice(NOTES), r.choice(DAYS), next_id(state.notes, "T-")
    plan = [click(L("#nav-announcements"), expect=visible(L(f'.ann[data-id="{ann.id}"]'))), p.open_announcement(ann.id),
            p.dashboard(), p.open_course(g.course), p.tab("grades", "#grades"), p.open_assignment(g.id, "grades"),
            *p.comment(comment, kid), p.dashboard(), *p.to_assignment(up.course, up.id), *p.submit("upload", f, sid)]  # fmt: skip
    start = len(plan)
    plan += p.new_note(note, day, course_label(state, up.course), up.course, tid)
    return make("week-plan", n, f"plan your week: read the announcement “{ann.title}”; comment “{comment}” on your graded "
                f"“{g.title}” ({code(state, g.course)}); upload your file {f} for “{up.title}” ({code(state, up.course)}); and add "
                f"a to-do “{note}” for {day} linked to {code(state, up.course)}.", plan,
                [update("announcements", ann.id, read=True), create("comments", submission=gsid, author=state.me, body=comment),
                 create("submissions", assignment=up.id, attempt=1, kind="upload", file=f),
                 create("notes", title=note, date=day, course=up.course, done=False)],
                write_targets(f"{API}/notes", plan, "#note-add", visible(L(f'#notes li[data-id="{tid}"]')), "/todo",
                              listing=f"{API}/todo", redo_from=start, form=True))  # fmt: skip


def t_term_start(state: EducationState, r: random.Random, n: int) -> StatefulTask | None:
    """Star a course, mark its first open item done, start a discussion there, dismiss a to-do,
    and add the course's study session to the calendar."""
    c = r.choice([x for x in state.courses if not x.favorite])
    items = [i for i in state.items if i.course == c.id and not i.done]
    todo = [a for a in open_work(state, "text") + open_work(state, "upload") if a.course != c.id]
    if not items or not todo:
        return None
    item, a = items[0], r.choice(todo)
    (title, body), did = r.choice(TOPICS), next_id(state.topics, "D-")
    (ev, time), day, evid = r.choice(EVENTS), r.choice(DAYS), next_id(state.events, "EV-")
    star = f"{p.card(c.id)} .fav"
    plan = [click(L(star), expect=visible(L(f'{star}[aria-pressed="true"]'))), p.open_course(c.id), p.mark_done(item.id),
            p.tab("discussions", "#topics"), *p.new_topic(title, body, did), p.dashboard(),
            click(L(f'#todo-list li[data-id="{a.id}"] .dismiss'), expect=text_has(L("#toast"), "removed from your to-do list"))]  # fmt: skip
    start = len(plan)
    plan += p.new_event(ev, day, time, course_label(state, c.id), c.id, evid)
    return make("term-start", n, f"start the term in {c.code}: add it to your favorites, mark “{item.title}” as done, start a "
                f"discussion titled “{title}” with the text “{body}”, remove “{a.title}” ({code(state, a.course)}) from your to-do "
                f"list, and add the event “{ev}” on {day} at {time} for {c.code}.", plan,
                [update("courses", c.id, favorite=True), update("items", item.id, done=True),
                 create("topics", course=c.id, title=title, body=body, author=state.me),
                 update("assignments", a.id, dismissed=True), create("events", title=ev, date=day, time=time, course=c.id)],
                write_targets(f"{API}/events", plan, "#event-save", visible(L(f'#calendar li[data-id="{evid}"]')), "/calendar",
                              listing=f"{API}/calendar", redo_from=start, form=True))  # fmt: skip


TEMPLATES = {
    "catch-up": t_catch_up,
    "discussion-day": t_discussion_day,
    "week-plan": t_week_plan,
    "term-start": t_term_start,
}
