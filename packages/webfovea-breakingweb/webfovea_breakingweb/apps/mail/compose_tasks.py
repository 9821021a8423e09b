"""The mail client's longer state-task templates: reply, forward (with attachments) and a triage of
several conversations. A sent message is a created record whose fields the obligation names."""

from __future__ import annotations

import random
from collections.abc import Iterator

from webfovea_breakingweb.apps.mail import plans as p
from webfovea_breakingweb.apps.mail.common import API, answered, make, originals, pick
from webfovea_breakingweb.apps.mail.state import MailState
from webfovea_breakingweb.apps.mail.state_tasks import REPLIES, about, reach, update, write
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, fill, text_has, visible


def _compose(opener: str) -> dict:
    return click(L(opener), expect=visible(L("#compose #send")))


def reply(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [m for m in originals(state, "inbox", "archive") if not answered(state, m)]
    for n, m in enumerate(pick(r, pool, 6), 1):
        text = r.choice(REPLIES)
        plan = [
            *reach(m),
            _compose("#msg-reply"),
            fill(L("#c-body"), text, expect={"target": L("#c-body"), "value": text}),
        ]
        plan.append(p.toast_after("#send"))
        step = len(plan) - 1
        plan.append(answer(L("#toast .ref")))
        readback = text_has(L("#msg-meta .answered"), f"Replied to {m.sender_email}")
        subject = f"Re: {m.subject}"
        fields = {
            "folder": "sent",
            "to": m.sender_email,
            "subject": subject,
            "body": text,
            "in_reply_to": m.id,
            "thread": m.thread,
        }
        yield make(
            "reply",
            n,
            f"Reply to {about(m)} with exactly this text: “{text}” (keep the subject the reply form suggests). "
            f"Report the reference the mail client gives the sent message. {p.SIGN_IN}",
            plan,
            obligations=[{"entity": "messages", "op": "create", "count": 1, "fields": fields}],
            targets={
                **write(f"{API}/send", "#send", step, readback, p.message_path(m.id), step - 2),
                "form": True,
            },
        )


def forward(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [m for m in originals(state, "inbox", "archive") if m.attachments and not answered(state, m)]
    for n, m in enumerate(pick(r, pool, 6), 1):
        who = r.choice([c for c in state.contacts if c.email != m.sender_email])
        text = f"Hi {who.name.split()[0]}, please see the attached files."
        plan = [
            *reach(m),
            _compose("#msg-forward"),
            fill(L("#c-to"), who.email, expect={"target": L("#c-to"), "value": who.email}),
            fill(L("#c-body"), text, expect={"target": L("#c-body"), "value": text}),
            p.toast_after("#send"),
        ]
        step = len(plan) - 1
        plan.append(answer(L("#toast .ref")))
        readback = text_has(L("#msg-meta .answered"), f"Forwarded to {who.email}")
        fields = {
            "folder": "sent",
            "to": who.email,
            "subject": f"Fwd: {m.subject}",
            "body": text,
            "forward_of": m.id,
            "attachments": [a.model_dump() for a in m.attachments],
        }
        yield make(
            "forward",
            n,
            f"Forward {about(m)}, with its attachments, to {who.name} ({who.email}), writing exactly: “{text}”. "
            f"Report the reference of the sent message. {p.SIGN_IN}",
            plan,
            obligations=[{"entity": "messages", "op": "create", "count": 1, "fields": fields}],
            targets={
                **write(f"{API}/send", "#send", step, readback, p.message_path(m.id), step - 3),
                "form": True,
            },
        )


def triage(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    """Hard: three conversations, each labelled, marked read and archived (about 21 actions)."""
    names = {lab.id: lab.name for lab in state.labels}
    pool = [m for m in originals(state, "inbox") if not m.read]
    for n in range(1, 5):
        slug = r.choice(sorted(names))
        chosen = [m for m in pick(r, [m for m in pool if slug not in m.labels], 3)]
        if len(chosen) < 3:
            continue
        plan = []
        for i, m in enumerate(chosen):
            plan += [
                *([p.folder("inbox")] if i else []),  # back from the last message to the list
                *reach(m),
                p.choose("#msg-label-choice", names[slug], slug),
                click(L("#msg-label"), expect=text_has(L("#msg-meta .labels"), names[slug])),
                click(L("#msg-read"), expect=text_has(L("#msg-meta .status"), "Read")),
                p.toast_after("#msg-archive"),
            ]
        step = len(plan) - 1
        plan.append(p.answer_done())
        last = chosen[-1]
        subjects = "; ".join(f"“{m.subject}”" for m in chosen)
        yield make(
            "triage",
            n,
            f"Triage three conversations in your Inbox: {subjects}. Give each the label {names[slug]} (keep "
            f"its other labels), mark it as read and archive it. Change nothing else. {p.SIGN_IN}",
            plan,
            obligations=[
                update(m.id, labels=sorted({*m.labels, slug}), read=True, folder="archive") for m in chosen
            ],
            targets=write(
                f"{API}/messages/{last.id}/archive",
                "#msg-archive",
                step,
                text_has(L("#msg-meta .folder"), "Archive"),
                p.message_path(last.id),
                step,
            ),
        )


TEMPLATES = {"reply": reply, "forward": forward, "triage": triage}
