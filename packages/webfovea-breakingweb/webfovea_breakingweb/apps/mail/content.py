"""The mailbox a seed starts with: ~175 conversations, 300+ messages in five folders.

Deterministic by the generator the engine hands over (`rng("app:mail", seed, None,
"content")`, engine/spec.py `AppSpec.initial`): every task of a seed sees the same mailbox, so
the task generator (tasks.py) instantiates its templates from exactly the state the server
builds. Subjects carry a number, so each
conversation is named uniquely; senders come from an address book of 36 people.
"""

from __future__ import annotations

import random
from datetime import timedelta

from webfovea_breakingweb.apps.mail.state import Attachment, Contact, Label, MailState, Message
from webfovea_breakingweb.engine.determinism import EPOCH

LABELS = (
    ("work", "Work", "#2f6fb0"),
    ("finance", "Finance", "#2e8b57"),
    ("travel", "Travel", "#c77d14"),
    ("family", "Family", "#a0449b"),
    ("receipts", "Receipts", "#6b6b6b"),
    ("newsletters", "Newsletters", "#b03a2e"),
)
FIRST = ("Ada", "Ola", "Kari", "Per", "Siri", "Jon", "Liv", "Nils", "Mira", "Tor", "Eva", "Leo")
LAST = ("Berg", "Nord", "Vik", "Lunde", "Dahl", "Moe", "Aas", "Ek", "Holm", "Strand", "Lie", "Bakke")
DOMAINS = ("nordbank.example", "fjordtravel.example", "statlab.example", "homemail.example")

# topic: (subject patterns, label, attachment (name pattern, kind, size range) or None, folders weight)
TOPICS: dict[str, tuple[tuple[str, ...], str | None, tuple[str, str, int, int] | None]] = {
    "invoice": (
        ("Invoice {n} for {month}", "Payment reminder {n}", "Credit note {n}"),
        "finance",
        ("invoice-{n}.pdf", "pdf", 40, 220),
    ),
    "travel": (
        ("Booking confirmation {n}", "Your trip to {city} ({n})", "Itinerary change {n}"),
        "travel",
        ("itinerary-{n}.pdf", "pdf", 60, 400),
    ),
    "report": (
        ("Quarterly report draft {n}", "Figures for {month} ({n})", "Review of table {n}"),
        "work",
        ("report-{n}.xlsx", "xlsx", 25, 900),
    ),
    "meeting": (
        ("Meeting on {month} {day} ({n})", "Agenda for workshop {n}", "Minutes of meeting {n}"),
        "work",
        ("minutes-{n}.docx", "docx", 15, 120),
    ),
    "family": (
        ("Photos from {city} ({n})", "Dinner on {day} {month} ({n})", "Birthday plans {n}"),
        "family",
        ("photo-{n}.jpg", "jpg", 800, 4200),
    ),
    "receipt": (
        ("Your order {n} has shipped", "Receipt for order {n}", "Return of order {n}"),
        "receipts",
        ("receipt-{n}.pdf", "pdf", 20, 90),
    ),
    "newsletter": (
        ("Weekly digest {n}", "News from the data portal ({n})", "Release calendar {n}"),
        "newsletters",
        None,
    ),
    "spam": (("You have won prize {n}", "Urgent: verify account {n}", "Cheap offer {n}"), None, None),
}
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
CITIES = ("Bergen", "Tromsø", "Oslo", "Ålesund", "Bodø", "Stavanger", "Trondheim", "Lillehammer")
BODY = {
    "invoice": "Please find invoice {n} attached. The amount is due within 14 days.",
    "travel": "Here are the details of your trip. Reference {n}. Have a good journey.",
    "report": "Attached is the latest version. Could you check the figures before Friday?",
    "meeting": "Thanks for joining. The notes are attached; please add anything I missed.",
    "family": "It was lovely to see you. Some pictures from the day are attached.",
    "receipt": "Thank you for your order {n}. Keep this message for your records.",
    "newsletter": "This week's highlights from the portal, new datasets and upcoming releases.",
    "spam": "Click the link below within 24 hours to claim your reward. Do not tell anyone.",
}
REPLIES = (
    "Thanks, noted.",
    "Could you send the updated version?",
    "That works for me.",
    "I will get back to you tomorrow.",
    "Received, thank you.",
)
THREADS = 175


def _contacts(r: random.Random) -> list[Contact]:
    names = [f"{f} {last}" for f in FIRST for last in LAST]
    r.shuffle(names)
    out = []
    for i, name in enumerate(sorted(names[:36]), 1):
        email = f"{name.split()[0].lower()}.{name.split()[1].lower()}@{DOMAINS[i % len(DOMAINS)]}"
        out.append(Contact(id=f"P-{i:03d}", name=name, email=email))
    return out


def _stamp(minutes: int) -> str:
    return (EPOCH - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _thread(r: random.Random, state: MailState, t: int, topic: str, folder: str) -> None:
    patterns, label, attach = TOPICS[topic]
    n = f"{2024}-{100 + t * 7 + r.randint(0, 6)}"
    subject = r.choice(patterns).format(
        n=n, month=r.choice(MONTHS), city=r.choice(CITIES), day=r.randint(1, 28)
    )
    sender = r.choice(state.contacts)
    if topic == "spam":
        sender = Contact(id="x", name=f"Prize desk {t}", email=f"winner{t}@lucky-prizes.example")
    start = r.randint(60 * 30, 60 * 24 * 120)  # minutes before the epoch
    length = 1 if topic in ("newsletter", "spam") else r.choice((1, 1, 1, 2, 2, 3, 4))
    labels = [label] if label and r.random() < 0.8 else []
    for k in range(length):
        mine = k % 2 == 1
        minutes = max(1, start - k * r.randint(20, 60 * 30))
        files = []
        if attach and not mine and k == 0 and r.random() < 0.7:
            for j in range(1 if r.random() < 0.75 else 2):
                name = attach[0].format(n=n if j == 0 else f"{n}-{j + 1}")
                files.append(Attachment(name=name, size_kb=r.randint(attach[2], attach[3]), kind=attach[1]))
        mid = f"M-{len(state.messages) + 1:04d}"
        prev = state.messages[-1].id if k else None
        stamp = _stamp(minutes)
        state.messages.append(
            Message(
                id=mid,
                thread=f"T-{t:03d}",
                folder="sent" if mine else folder,  # type: ignore[arg-type]
                sender="Me" if mine else sender.name,
                sender_email=state.me if mine else sender.email,
                to=sender.email if mine else state.me,
                subject=subject if k == 0 else f"Re: {subject}",
                body=BODY[topic].format(n=n) if k == 0 else r.choice(REPLIES),
                date=stamp,
                read=mine or folder != "inbox" or r.random() < 0.6,
                starred=not mine and r.random() < 0.08,
                labels=labels if not mine else [],
                attachments=files,
                in_reply_to=prev,
                created=stamp,
                updated=stamp,
            )
        )


def build(r: random.Random, seed: int) -> MailState:
    """The clean initial mailbox for a seed (the engine keeps it and hands out copies)."""
    state = MailState()
    state.contacts = _contacts(r)
    state.labels = [Label(id=i, name=n, color=c) for i, n, c in LABELS]
    topics = [t for t in TOPICS if t != "spam"]
    for t in range(1, THREADS + 1):
        topic = "spam" if t % 12 == 5 else r.choice(topics)
        folder = "spam" if topic == "spam" else r.choices(("inbox", "archive", "trash"), (66, 28, 6))[0]
        _thread(r, state, t, topic, folder)
    state.counter = len(state.messages)
    return state
