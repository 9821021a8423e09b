"""The email site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): starring,
archiving and marking read or unread from the inbox; labelling, replying, deleting, drafts;
composing with a copy, forwarding, a new label, reply-and-file.

Each instance names its conversation by subject and correspondent (subjects are unique), so
the truth is unambiguous; obligations name every change (opening an unread conversation marks
it read); anything else that changes breaks an invariant. The readback holds only when the
backend holds the change, on `verify_path` after a fresh load (a list view, never the
conversation itself unless it was read already: opening one is a write)."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.email import plans as p
from webfovea_breakingweb.apps.email.common import (
    API,
    contact,
    create,
    delete,
    inbox,
    last_message,
    live,
    lookalike,
    make,
    obs,
    thread_ob,
    write_targets,
)
from webfovea_breakingweb.apps.email.state import EmailState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, visible

PER_TEMPLATE = 6
REPLIES = (
    "Thanks, I will get back to you by Friday.", "Received, thank you. I will review it this week.",
    "Sounds good to me, let's go ahead.", "Could we move this to next Tuesday?",
    "Thank you, that answers my question.", "Noted. I will forward this to the team.",
)  # fmt: skip
NOTES = (
    "FYI, see below.",
    "Could you take a look at this?",
    "Forwarding for your records.",
    "Please handle this one.",
)
SUBJECTS = ("Project status update", "Lunch on Thursday?", "Draft agenda for Monday", "Question about the invoice",
            "Photos from the weekend", "Holiday schedule")  # fmt: skip
BODIES = (
    "Hi, a short update: everything is on track. I will send the details tomorrow.",
    "Hello, are you free for lunch on Thursday at noon?",
    "Hi all, here is a first draft of the agenda. Comments welcome.",
)
NEW_LABELS = ("Urgent", "Follow up", "Taxes 2025", "Renovation", "Waiting", "Reading list")


def t_star_inbox(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice([x for x in inbox(state) if not x.starred])
    plan = [p.star_row(t.id)]
    readback = visible(L(f'{p.row(t.id)} .star[aria-pressed="true"]'))
    return make("star-inbox", n, f"On pinemail, star the email “{t.subject}” from {t.correspondent} in your inbox.",
                plan, obs(thread_ob(t, opened=False, starred=True)),
                {**write_targets(f"{API}/threads/{t.id}/star", plan, f"{p.row(t.id)} .star", readback, "/inbox"),
                 **lookalike(state, r, t)})  # fmt: skip


def t_mark_read(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state, read=False))
    plan = [p.pick(t.id), p.bulk("read", "read")]
    readback = visible(L(f"{p.row(t.id)}.read"))
    return make("mark-read", n, f"On pinemail, mark the email “{t.subject}” from {t.correspondent} in your inbox as read without opening it.",
                plan, obs(thread_ob(t, opened=False, read=True)),
                {**write_targets(f"{API}/threads/bulk", plan, "#bulk-read", readback, "/inbox"), **lookalike(state, r, t)})  # fmt: skip


def t_archive_inbox(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state))
    plan = [p.pick(t.id), p.bulk("archive", "archive")]
    readback = visible(L(f"#threads:not(:has({p.row(t.id)}))"))  # the inbox drawn, without it
    return make("archive-inbox", n, f"On pinemail, archive the email “{t.subject}” from {t.correspondent} (select it in your inbox).",
                plan, obs(thread_ob(t, opened=False, inbox=False)),
                {**write_targets(f"{API}/threads/bulk", plan, "#bulk-archive", readback, "/inbox"),
                 **lookalike(state, r, t)})  # fmt: skip


def t_mark_unread(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state, read=True))
    plan = [p.pick(t.id), p.bulk("unread", "unread")]
    readback = visible(L(f"{p.row(t.id)}.unread"))
    return make("mark-unread", n, f"On pinemail, mark the email “{t.subject}” from {t.correspondent} in your inbox as unread.",
                plan, obs(thread_ob(t, opened=False, read=False)),
                {**write_targets(f"{API}/threads/bulk", plan, "#bulk-unread", readback, "/inbox"),
                 **lookalike(state, r, t)})  # fmt: skip


def t_label_inbox(state: EmailState, r: random.Random, n: int) -> StatefulTask | None:
    t = r.choice(inbox(state))
    free = [x.name for x in state.labels if x.name not in t.labels]
    name = r.choice(free)
    plan = [p.open_thread(t.id), *p.label(name)]
    readback = visible(L(f'#t-labels .chip[data-label="{name}"]'))
    return make("label-inbox", n, f"On pinemail, open the email “{t.subject}” from {t.correspondent} in your inbox and label it {name}.",
                plan, obs(thread_ob(t, labels=[*t.labels, name])),
                {**write_targets(f"{API}/threads/{t.id}/labels", plan, "#t-label-apply", readback, f"/t/{t.id}", redo_from=1),
                 **lookalike(state, r, t)})  # fmt: skip


def t_reply(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state))
    text, mid = r.choice(REPLIES), next_id(state.messages, "E-")
    plan = [p.open_thread(t.id), *p.reply(text, mid)]
    to = contact(state, t.correspondent).address
    return make("reply", n, f"On pinemail, reply “{text}” to the email “{t.subject}” from {t.correspondent} in your inbox.",
                plan, obs(thread_ob(t), create("messages", thread=t.id, to=to, body=text, sender=state.address)),
                {**write_targets(f"{API}/threads/{t.id}/reply", plan, "#reply-send", visible(L(f'article.message[data-id="{mid}"]')),
                                 f"/t/{t.id}", redo_from=1), **lookalike(state, r, t)})  # fmt: skip


def t_trash_search(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice([x for x in live(state) if not x.inbox])
    plan = [*p.find(t.subject, t.id), p.trash()]
    return make("trash-search", n, f"On pinemail, find the archived email “{t.subject}” from {t.correspondent} and delete it.",
                plan, obs(thread_ob(t, trashed=True)),
                write_targets(f"{API}/threads/{t.id}/trash", plan, "#t-trash", visible(L("#t-restore")), f"/t/{t.id}",
                              redo_from=len(plan) - 1))  # fmt: skip


def t_save_draft(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    who = r.choice(state.contacts)
    subject, body, did = r.choice(SUBJECTS), r.choice(BODIES), next_id(state.drafts, "D-")
    plan = p.compose(who.address, "", subject, body, did, draft=True)
    return make("save-draft", n, f"On pinemail, write an email to {who.name} ({who.address}) with the subject “{subject}” and the text "
                f"“{body}”, and save it as a draft without sending it.", plan,
                [create("drafts", to=who.address, cc="", subject=subject, body=body)],
                write_targets(f"{API}/drafts", plan, "#c-save", visible(L(f'tr.draft[data-id="{did}"]')), "/drafts",
                              listing=f"{API}/drafts", form=True))  # fmt: skip


def t_finish_draft(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    d = r.choice([x for x in state.drafts if not x.to])
    who = r.choice(state.contacts)
    tid, mid = next_id(state.threads, "T-"), next_id(state.messages, "E-")
    plan = p.finish_draft(d.id, who.address, mid)
    return make("finish-draft", n, f"On pinemail, send your draft “{d.subject}” to {who.name} ({who.address}) as it is.", plan,
                [delete("drafts", d.id), create("threads", subject=d.subject, correspondent=who.name, inbox=False),
                 create("messages", thread=tid, to=who.address, subject=d.subject, body=d.body, sender=state.address)],
                write_targets(f"{API}/drafts/{d.id}/send", plan, "#c-send", visible(L(p.row(tid))), "/sent",
                              listing=f"{API}/drafts", form=True))  # fmt: skip


def t_compose(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    who, cc = r.sample(state.contacts, 2)
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    tid, mid = next_id(state.threads, "T-"), next_id(state.messages, "E-")
    plan = p.compose(who.address, cc.address, subject, body, mid)
    return make("compose", n, f"On pinemail, send an email to {who.name} ({who.address}) with {cc.name} ({cc.address}) in copy, "
                f"the subject “{subject}” and the text “{body}”.", plan,
                [create("threads", subject=subject, correspondent=who.name, inbox=False, read=True),
                 create("messages", thread=tid, to=who.address, cc=cc.address, subject=subject, body=body, sender=state.address)],
                write_targets(f"{API}/messages", plan, "#c-send", visible(L(p.row(tid))), "/sent", form=True))  # fmt: skip


def t_forward(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice([x for x in live(state) if x.correspondent != ""])
    who = r.choice([c for c in state.contacts if c.name != t.correspondent])
    note, mid = r.choice(NOTES), next_id(state.messages, "E-")
    plan = [*p.find(t.subject, t.id), *p.forward(who.address, note, mid)]
    return make("forward", n, f"On pinemail, forward the email “{t.subject}” from {t.correspondent} to {who.name} ({who.address}) "
                f"with the note “{note}”.", plan,
                obs(thread_ob(t), create("messages", thread=t.id, to=who.address, subject="Fwd: " + t.subject, body=note,
                                         forwarded=last_message(state, t.id), sender=state.address)),
                write_targets(f"{API}/threads/{t.id}/forward", plan, "#fwd-send", visible(L(f'article.message[data-id="{mid}"]')),
                              f"/t/{t.id}", redo_from=3, form=True))  # fmt: skip


def t_label_new(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state))
    name, gid = r.choice(NEW_LABELS), next_id(state.labels, "G-")
    plan = [*p.create_label(name, gid), p.nav("inbox", p.row(t.id)), p.open_thread(t.id), *p.label(name)]
    return make("label-new", n, f"On pinemail, create a label “{name}” and apply it to the email “{t.subject}” from {t.correspondent} in your inbox.",
                plan, obs(create("labels", name=name), thread_ob(t, labels=[*t.labels, name])),
                {**write_targets(f"{API}/threads/{t.id}/labels", plan, "#t-label-apply",
                                 visible(L(f'#t-labels .chip[data-label="{name}"]')), f"/t/{t.id}", redo_from=len(plan) - 2), **lookalike(state, r, t)})  # fmt: skip


def t_reply_file(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(inbox(state))
    name = r.choice([x.name for x in state.labels if x.name not in t.labels])
    text, mid = r.choice(REPLIES), next_id(state.messages, "E-")
    plan = [p.open_thread(t.id), *p.reply(text, mid), *p.label(name), p.archive()]
    to = contact(state, t.correspondent).address
    return make("reply-file", n, f"On pinemail, reply “{text}” to the email “{t.subject}” from {t.correspondent}, then label it "
                f"{name} and archive it.", plan,
                obs(thread_ob(t, labels=[*t.labels, name], inbox=False),
                    create("messages", thread=t.id, to=to, body=text, sender=state.address)),
                {**write_targets(f"{API}/threads/{t.id}/archive", plan, "#t-archive", visible(L("#t-inbox")), f"/t/{t.id}",
                                 redo_from=len(plan) - 1), **lookalike(state, r, t)})  # fmt: skip


TEMPLATES = {
    "star-inbox": t_star_inbox, "mark-read": t_mark_read, "archive-inbox": t_archive_inbox, "mark-unread": t_mark_unread,
    "label-inbox": t_label_inbox, "reply": t_reply, "trash-search": t_trash_search, "save-draft": t_save_draft,
    "finish-draft": t_finish_draft, "compose": t_compose, "forward": t_forward, "label-new": t_label_new,
    "reply-file": t_reply_file,
}  # fmt: skip
