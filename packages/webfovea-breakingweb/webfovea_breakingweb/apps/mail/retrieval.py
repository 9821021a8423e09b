"""The mail client's retrieval templates: the answer is read from the seeded mailbox with the
server's own listing (routes.listing), and the request obligation says where it came from."""

from __future__ import annotations

import random
from collections.abc import Iterator

from webfovea_breakingweb.apps.mail import plans as p
from webfovea_breakingweb.apps.mail.common import API, listed, make, opened, originals, pick
from webfovea_breakingweb.apps.mail.routes import listing
from webfovea_breakingweb.apps.mail.state import MailState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer


def _open_targets(mid: str, step: int) -> dict:
    return {"main": ["GET", f"{API}/messages/{mid}"], "submit": f"{p.row(mid)} a.open", "submit_step": step}


def unread_count(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    places = [("inbox", "Inbox", None)] + [(lab.id, lab.name, lab.id) for lab in state.labels]
    n = 0
    for slug, name, lab in places:
        got = listing(state, "inbox" if lab is None else "", lab or "", "", "", 1)["unread"]
        if not got:
            continue
        n += 1
        where = "your Inbox" if lab is None else f"the label {name}"
        nav = p.folder("inbox") if lab is None else p.label(slug, name)
        yield make(
            "unread-count",
            n,
            f"How many unread messages are there in {where} of the mail client? Report the number. {p.SIGN_IN}",
            [nav, answer(L("#list-info .unread-info"), regex=r"(\d+)")],
            answer=str(got),
            obligations=[
                listed(f"{where} was listed", **({"folder": "inbox"} if lab is None else {"label": slug}))
            ],
            targets={
                "main": ["GET", f"{API}/messages"],
                "submit": nav["target"]["selector"],
                "submit_step": 0,
            },
        )


def attachment_size(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [m for m in originals(state, "inbox", "archive") if m.attachments]
    for n, m in enumerate(pick(r, pool, 7), 1):
        a = r.choice(m.attachments)
        plan = [*([p.folder("archive")] if m.folder == "archive" else []), *p.search(m.subject)]
        plan.append(p.open_message(m.id))
        step = len(plan) - 1
        plan.append(
            answer(L(f'#thread li.msg[data-id="{m.id}"] li[data-name="{a.name}"] .size'), regex=r"(\d+)")
        )
        place = "your Archive" if m.folder == "archive" else "your Inbox"
        yield make(
            "attachment-size",
            n,
            f"In {place}, the message from {m.sender} about “{m.subject}” has the attachment {a.name}. "
            f"How large is it, in KB? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(a.size_kb),
            obligations=[opened(m.id)],
            targets=_open_targets(m.id, step),
        )


def thread_size(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    sizes: dict[str, int] = {}
    for m in state.messages:
        sizes[m.thread] = sizes.get(m.thread, 0) + 1
    pool = [m for m in originals(state, "inbox") if sizes[m.thread] >= 2]
    for n, m in enumerate(pick(r, pool, 6), 1):
        plan = [*p.search(m.subject), p.open_message(m.id), answer(L("#thread-count"), regex=r"(\d+)")]
        yield make(
            "thread-size",
            n,
            f"How many messages does the conversation “{m.subject}” (in your Inbox) hold, your own replies "
            f"included? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(sizes[m.thread]),
            obligations=[opened(m.id)],
            targets=_open_targets(m.id, len(plan) - 2),
        )


def latest_from(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    senders = sorted({m.sender for m in state.messages if m.folder == "inbox" and m.sender != "Me"})
    pool = [s for s in senders if listing(state, "inbox", "", s, "here", 1)["total"] >= 2]
    for n, who in enumerate(pick(r, pool, 6), 1):
        newest = listing(state, "inbox", "", who, "here", 1)["messages"][0]
        plan = [*p.search(who), answer(L("#records tbody tr:first-child td.subject a.open"))]
        yield make(
            "latest-from",
            n,
            f"What is the subject of the most recent message from {who} in your Inbox? Report the subject. "
            f"{p.SIGN_IN}",
            plan,
            answer=newest["subject"],
            obligations=[listed(f"the Inbox was searched for {who}", q=who, folder="inbox")],
            targets={"main": ["GET", f"{API}/messages"], "submit": "#search-go", "submit_step": 1},
        )


def sender_email(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    for n, m in enumerate(pick(r, originals(state, "inbox"), 6), 1):
        plan = [*p.search(m.subject), p.open_message(m.id)]
        step = len(plan) - 1
        plan.append(answer(L(f'#thread li.msg[data-id="{m.id}"] .email'), regex=r"([^<>\s]+@[^<>\s]+)"))
        yield make(
            "sender-email",
            n,
            f"What is the e-mail address of whoever sent “{m.subject}” to your Inbox? Report the address. "
            f"{p.SIGN_IN}",
            plan,
            answer=m.sender_email,
            obligations=[opened(m.id)],
            targets=_open_targets(m.id, step),
        )


def count_everywhere(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    senders = sorted({m.sender for m in state.messages if m.sender != "Me" and m.folder != "spam"})
    pool = [s for s in senders if any(m.sender == s and m.folder != "inbox" for m in state.messages)]
    for n, who in enumerate(pick(r, pool, 6), 1):
        total = listing(state, "inbox", "", who, "all", 1)["total"]
        plan = [*p.search(who, everywhere=True), answer(L("#list-info .total"), regex=r"(\d+)")]
        yield make(
            "count-everywhere",
            n,
            f"How many messages from {who} are in your mailbox altogether, counting every folder (Inbox, "
            f"Archive, Spam, Trash)? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(total),
            obligations=[listed(f"all mail was searched for {who}", q=who, scope="all")],
            targets={"main": ["GET", f"{API}/messages"], "submit": "#search-go", "submit_step": 2},
        )


TEMPLATES = {
    "unread-count": unread_count,
    "attachment-size": attachment_size,
    "thread-size": thread_size,
    "latest-from": latest_from,
    "sender-email": sender_email,
    "count-everywhere": count_everywhere,
}
