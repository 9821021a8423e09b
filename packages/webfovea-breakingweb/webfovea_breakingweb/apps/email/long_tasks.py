"""The email site's long task templates, tiers T4 and T5: a morning's triage, dispatching news
(a new message and a forward), clearing the inbox, handing a matter over. Their main write
(the one the families aim at) is the last; a redo starts at that write's own steps."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.email import plans as p
from webfovea_breakingweb.apps.email.common import (
    API,
    contact,
    create,
    inbox,
    last_message,
    live,
    make,
    obs,
    thread_ob,
    write_targets,
)
from webfovea_breakingweb.apps.email.state import EmailState
from webfovea_breakingweb.apps.email.tasks import BODIES, NEW_LABELS, NOTES, REPLIES, SUBJECTS
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, visible


def later_id(records: list, prefix: str, k: int) -> str:
    """The id the k-th record made from now gets (k = 1: the next one)."""
    top = max((int(x.id[len(prefix) :]) for x in records if x.id.startswith(prefix)), default=0)
    return f"{prefix}{top + k:04d}"


def free_label(state: EmailState, r: random.Random, t: object) -> str:
    return r.choice([x.name for x in state.labels if x.name not in t.labels])  # type: ignore[attr-defined]


def t_triage(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    a, b = r.sample([x for x in inbox(state) if not x.starred], 2)
    c = r.choice([x for x in live(state) if not x.inbox])
    name, text, mid = free_label(state, r, b), r.choice(REPLIES), later_id(state.messages, "E-", 1)
    plan = [
        p.star_row(a.id),
        p.open_thread(b.id),
        *p.reply(text, mid),
        *p.label(name),
        p.archive(),
        *p.find(c.subject, c.id),
        p.trash(),
    ]
    return make("triage", n, f"On pinemail, triage your mail: star the email “{a.subject}” from {a.correspondent}; reply “{text}” to "
                f"“{b.subject}” from {b.correspondent}, label it {name} and archive it; then find the archived email “{c.subject}” "
                f"from {c.correspondent} and delete it.", plan,
                obs(thread_ob(a, opened=False, starred=True), thread_ob(b, labels=[*b.labels, name], inbox=False),
                    create("messages", thread=b.id, to=contact(state, b.correspondent).address, body=text, sender=state.address),
                    thread_ob(c, trashed=True)),
                write_targets(f"{API}/threads/{c.id}/trash", plan, "#t-trash", visible(L("#t-restore")), f"/t/{c.id}",
                              redo_from=len(plan) - 1))  # fmt: skip


def t_dispatch(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    to, cc, fwd = r.sample(state.contacts, 3)
    t = r.choice([x for x in live(state) if x.correspondent != fwd.name])
    subject, body, note = r.choice(SUBJECTS), r.choice(BODIES), r.choice(NOTES)
    tid, first, second = (
        later_id(state.threads, "T-", 1),
        later_id(state.messages, "E-", 1),
        later_id(state.messages, "E-", 2),
    )
    plan = p.compose(to.address, cc.address, subject, body, first)
    plan += p.find(t.subject, t.id)
    start = len(plan)
    plan += p.forward(fwd.address, note, second)
    return make("dispatch", n, f"On pinemail, send an email to {to.name} ({to.address}) with {cc.name} ({cc.address}) in copy, the "
                f"subject “{subject}” and the text “{body}”; then forward the email “{t.subject}” from {t.correspondent} to "
                f"{fwd.name} ({fwd.address}) with the note “{note}”.", plan,
                obs(create("threads", subject=subject, correspondent=to.name, inbox=False, read=True),
                    create("messages", thread=tid, to=to.address, cc=cc.address, subject=subject, body=body),
                    thread_ob(t),
                    create("messages", thread=t.id, to=fwd.address, body=note, forwarded=last_message(state, t.id))),
                write_targets(f"{API}/threads/{t.id}/forward", plan, "#fwd-send", visible(L(f'article.message[data-id="{second}"]')),
                              f"/t/{t.id}", redo_from=start, form=True))  # fmt: skip


def t_inbox_zero(state: EmailState, r: random.Random, n: int) -> StatefulTask | None:
    unread = inbox(state, read=False)
    if len(unread) < 2:
        return None
    c, d = r.sample(unread, 2)
    rest = [x for x in inbox(state) if x not in (c, d)]
    g, e, f, a, b = r.sample([x for x in rest if not x.starred], 5)
    text, mid, name = r.choice(REPLIES), later_id(state.messages, "E-", 1), free_label(state, r, b)
    # Deleting first: the rows it removes leave the selection, while rows marked read stay picked.
    plan = [p.star_row(g.id), p.pick(e.id), p.pick(f.id), p.bulk("trash", "trash"), p.pick(c.id), p.pick(d.id), p.bulk("read", "read"),
            p.open_thread(a.id), *p.reply(text, mid), p.archive(), p.nav("inbox", p.row(b.id)), p.open_thread(b.id),
            p.archive(), *p.label(name)]  # the main write's button (Apply) only once: the families aim at it  # fmt: skip
    return make("inbox-zero", n, f"On pinemail, clear your inbox: star “{g.subject}” from {g.correspondent}; delete “{e.subject}” and "
                f"“{f.subject}”; mark “{c.subject}” and “{d.subject}” as read; reply “{text}” to “{a.subject}” from "
                f"{a.correspondent} and archive it; archive “{b.subject}” from {b.correspondent} and label it {name}.", plan,
                obs(thread_ob(g, opened=False, starred=True), thread_ob(c, read=True), thread_ob(d, read=True),
                    thread_ob(e, opened=False, trashed=True), thread_ob(f, opened=False, trashed=True),
                    thread_ob(a, inbox=False),
                    create("messages", thread=a.id, to=contact(state, a.correspondent).address, body=text),
                    thread_ob(b, labels=[*b.labels, name], inbox=False)),
                write_targets(f"{API}/threads/{b.id}/labels", plan, "#t-label-apply",
                              visible(L(f'#t-labels .chip[data-label="{name}"]')), f"/t/{b.id}", redo_from=len(plan) - 2))  # fmt: skip


def t_handover(state: EmailState, r: random.Random, n: int) -> StatefulTask:
    t = r.choice(live(state))
    fwd, to = r.sample([c for c in state.contacts if c.name != t.correspondent], 2)
    name, gid, note = r.choice(NEW_LABELS), later_id(state.labels, "G-", 1), r.choice(NOTES)
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    first, tid, second = (
        later_id(state.messages, "E-", 1),
        later_id(state.threads, "T-", 1),
        later_id(state.messages, "E-", 2),
    )
    plan = [
        *p.create_label(name, gid),
        *p.find(t.subject, t.id),
        *p.label(name),
        *p.forward(fwd.address, note, first),
    ]
    start = len(plan)
    plan += p.compose(to.address, "", subject, body, second)
    return make("handover", n, f"On pinemail, hand over a matter: create the label “{name}”, apply it to the email “{t.subject}” from "
                f"{t.correspondent}, forward that email to {fwd.name} ({fwd.address}) with the note “{note}”, and then send "
                f"{to.name} ({to.address}) an email with the subject “{subject}” and the text “{body}”.", plan,
                obs(create("labels", name=name), thread_ob(t, labels=[*t.labels, name]),
                    create("messages", thread=t.id, to=fwd.address, body=note, forwarded=last_message(state, t.id)),
                    create("threads", subject=subject, correspondent=to.name, inbox=False),
                    create("messages", thread=tid, to=to.address, subject=subject, body=body)),
                write_targets(f"{API}/messages", plan, "#c-send", visible(L(p.row(tid))), "/sent", redo_from=start, form=True))  # fmt: skip


TEMPLATES = {"triage": t_triage, "dispatch": t_dispatch, "inbox-zero": t_inbox_zero, "handover": t_handover}
