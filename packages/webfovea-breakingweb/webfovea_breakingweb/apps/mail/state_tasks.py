"""The mail client's state-task templates: obligations name every change the task needs;
anything else that changes breaks an invariant (obligations.py). Each write step expects the
page's success message; `readback` holds only when the server really holds the change, on
the view the task ends on and on `verify_path` after a fresh load."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from webfovea_breakingweb.apps.mail import plans as p
from webfovea_breakingweb.apps.mail.common import API, make, originals, pick
from webfovea_breakingweb.apps.mail.routes import listing
from webfovea_breakingweb.apps.mail.state import MailState, Message
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, Step, answer_value, text_has

MESSAGES = "messages"
REPLIES = (
    "Thank you, I will look at it this week.",
    "Received with thanks. I will come back to you on Monday.",
    "Many thanks, this is exactly what I needed.",
    "Noted. Please keep me posted on any change.",
)


def update(mid: str, **fields: Any) -> dict[str, Any]:
    return {"entity": MESSAGES, "op": "update", "id": mid, "fields": fields}


def write(route: str, submit: str, step: int, readback: dict, verify: str, redo: int) -> dict[str, Any]:
    """The targets of a write: its route, the button that sends it, the re-read after it (`list`:
    the message it changed, or the listing for a bulk action), the readback and where it holds."""
    shown = route.rsplit("/", 1)[0] if "/messages/" in route else f"{API}/messages"
    if route.endswith("/send"):
        shown = verify.replace("/app/mail?view=m/", f"{API}/messages/")
    return {
        "main": ["POST", route],
        "list": ["GET", shown],
        "write": ["POST", route],
        "submit": submit,
        "submit_step": step,
        "readback": readback,
        "verify_path": verify,
        "redo_from": redo,
    }


def reach(m: Message) -> list[Step]:
    """Open a message: its folder, a search by its subject, the message."""
    return [
        *([p.folder(m.folder)] if m.folder != "inbox" else []),
        *p.search(m.subject),
        p.open_message(m.id),
    ]


def about(m: Message) -> str:
    return f"the message from {m.sender} about “{m.subject}”"


def _single(
    template: str,
    n: int,
    m: Message,
    instruction: str,
    tail: list[Step],
    action: str,
    check: tuple[str, str],
    **fields: Any,
) -> StatefulTask:
    """Open `m`, do `tail` (its last step sends `action`), read `check` back from the meta box."""
    plan = [*reach(m), *tail]
    step = len(plan) - 1
    cls, text = check
    readback = text_has(L(f"#msg-meta .{cls}"), text)
    plan.append(answer_value("done"))
    return make(
        template,
        n,
        f"{instruction} Change nothing else. {p.SIGN_IN}",
        plan,
        obligations=[update(m.id, **fields)],
        targets=write(
            f"{API}/messages/{m.id}/{action}",
            tail[-1]["target"]["selector"],
            step,
            readback,
            p.message_path(m.id),
            len(plan) - 1 - len(tail),
        ),
    )


def star(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [m for m in originals(state, "inbox", "archive") if not m.starred]
    for n, m in enumerate(pick(r, pool, 6), 1):
        yield _single(
            "star",
            n,
            m,
            f"Star {about(m)}.",
            [p.toast_after("#msg-star")],
            "star",
            ("starred", "Yes"),
            starred=True,
        )


def archive(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    for n, m in enumerate(pick(r, originals(state, "inbox"), 7), 1):
        yield _single(
            "archive",
            n,
            m,
            f"Archive {about(m)}.",
            [p.toast_after("#msg-archive")],
            "archive",
            ("folder", "Archive"),
            folder="archive",
        )


def move(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = originals(state, "inbox", "archive")
    for n, m in enumerate(pick(r, pool, 7), 1):
        dest = r.choice([f for f in ("inbox", "archive", "spam", "trash") if f != m.folder])
        name = p.FOLDER_NAMES[dest]
        tail = [p.choose("#msg-folder", name, dest), p.toast_after("#msg-move")]
        yield _single(
            "move",
            n,
            m,
            f"Move {about(m)} to the folder {name}.",
            tail,
            "move",
            ("folder", name),
            folder=dest,
        )


def add_label(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    names = {lab.id: lab.name for lab in state.labels}
    pool = [m for m in originals(state, "inbox", "archive") if len(m.labels) < len(names)]
    for n, m in enumerate(pick(r, pool, 6), 1):
        slug = r.choice(sorted(set(names) - set(m.labels)))
        tail = [p.choose("#msg-label-choice", names[slug], slug), p.toast_after("#msg-label")]
        yield _single(
            "add-label",
            n,
            m,
            f"Give {about(m)} the label {names[slug]} (keep its other labels).",
            tail,
            "label",
            ("labels", names[slug]),
            labels=sorted({*m.labels, slug}),
        )


def mark_unread(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [m for m in originals(state, "inbox") if m.read]
    for n, m in enumerate(pick(r, pool, 5), 1):
        yield _single(
            "mark-unread",
            n,
            m,
            f"Mark {about(m)} as unread.",
            [p.toast_after("#msg-read")],
            "unread",
            ("status", "Unread"),
            read=False,
        )


def _unread_from(state: MailState, who: str) -> list[Message]:
    return [m for m in state.messages if m.folder == "inbox" and m.sender == who and not m.read]


def _bulk_round(who: str, action: str, extra: list[Step], check: dict) -> list[Step]:
    from webfovea_proving_ground.plan import click

    return [
        *p.search(who),
        click(L("#select-all"), expect={"target": L("#select-all"), "checked": True}),
        *extra,
        click(L(f"#bulk-{action}"), expect={"all": [{"target": L("#toast"), "visible": True}, check]}),
    ]


def bulk_read(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    senders = sorted({m.sender for m in state.messages if m.folder == "inbox" and not m.read})
    pool = [s for s in senders if len(_unread_from(state, s)) >= 1]
    for n in range(1, 6):
        pair = sorted(pick(r, pool, 2))
        done = text_has(L("#list-info .unread-info"), "none unread")
        plan = [step for who in pair for step in _bulk_round(who, "read", [], done)]
        step = len(plan) - 1
        plan.append(answer_value("done"))
        obligations = [update(m.id, read=True) for who in pair for m in _unread_from(state, who)]
        yield make(
            "bulk-read",
            n,
            f"Mark every unread message in your Inbox from {pair[0]} or from {pair[1]} as read. Leave other "
            f"messages and folders as they are. {p.SIGN_IN}",
            plan,
            obligations=obligations,
            targets=write(f"{API}/bulk/read", "#bulk-read", step, done, p.search_path("f:inbox", pair[1]), 0),
        )


def bulk_label(state: MailState, r: random.Random) -> Iterator[StatefulTask]:
    names = {lab.id: lab.name for lab in state.labels}
    senders = sorted({m.sender for m in state.messages if m.folder == "inbox" and m.sender != "Me"})
    for n in range(1, 6):
        slug = r.choice(sorted(names))
        pair = sorted(pick(r, senders, 2))
        hits = {
            who: [m for m in state.messages if m.folder == "inbox" and who in (m.sender,)] for who in pair
        }
        if not all(any(slug not in m.labels for m in ms) for ms in hits.values()):
            continue
        last = next(
            m for m in listing(state, "inbox", "", pair[1], "here", 1)["messages"] if slug not in m["labels"]
        )
        check = text_has(L(f"{p.row(last['id'])} td.subject"), names[slug])
        choose = [p.choose("#bulk-label-choice", names[slug], slug)]
        plan = [
            step
            for who in pair
            for step in _bulk_round(
                who, "label", choose, check if who == pair[1] else {"target": L("#toast"), "visible": True}
            )
        ]
        step = len(plan) - 1
        plan.append(answer_value("done"))
        obligations = [
            update(m.id, labels=sorted({*m.labels, slug}))
            for ms in hits.values()
            for m in ms
            if slug not in m.labels
        ]
        yield make(
            "bulk-label",
            n,
            f"Give the label {names[slug]} to every message in your Inbox from {pair[0]} and from {pair[1]} "
            f"(keep the labels they already have). {p.SIGN_IN}",
            plan,
            obligations=obligations,
            targets=write(
                f"{API}/bulk/label", "#bulk-label", step, check, p.search_path("f:inbox", pair[1]), 0
            ),
        )


TEMPLATES = {
    "star": star,
    "archive": archive,
    "move": move,
    "add-label": add_label,
    "mark-unread": mark_unread,
    "bulk-read": bulk_read,
    "bulk-label": bulk_label,
}
