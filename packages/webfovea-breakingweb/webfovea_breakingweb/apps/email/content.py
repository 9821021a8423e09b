"""The mailbox a seed starts with: 24 contacts, 6 labels, 84 conversations (1–4 messages each),
4 drafts.

Deterministic by the generator the engine hands over (`rng("app:email", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the
mailbox the server serves. Subjects carry a number, so each conversation is named uniquely;
timestamps go back from the sites' epoch over five weeks (the newest an hour before "now").
Of the conversations: 8 you started (sent, not in the inbox), 4 in the trash, about a third
archived, the rest in the inbox; about half unread, a few starred.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.email.state import (
    MY_ADDRESS,
    Contact,
    Draft,
    EmailState,
    Label,
    Message,
    Thread,
)
from webfovea_breakingweb.engine.determinism import stamp

LABELS = (
    ("Work", "#1a73e8"), ("Finance", "#188038"), ("Travel", "#e37400"),
    ("Family", "#a142f4"), ("Receipts", "#5f6368"), ("Projects", "#d93025"),
)  # fmt: skip
FIRST = ("Ada", "Ola", "Kari", "Per", "Siri", "Jon", "Liv", "Nils", "Mira", "Tor", "Eva", "Leo")
LAST = ("Berg", "Nord", "Vik", "Lunde", "Dahl", "Moe", "Aas", "Holm", "Strand", "Lie", "Bakke", "Eng")
DOMAINS = ("northwind.example", "fjordtravel.example", "statlab.example", "homemail.example")
# topic: (subjects, label, first lines, replies)
TOPICS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...]]] = {
    "report": (("Quarterly report draft {n}", "Figures for the board ({n})", "Review of table {n}"), "Work",
               ("Attached is the latest version; the totals in section 2 changed.",
                "Could you check the numbers before Friday?", "The board asked for a one-page summary.")),
    "meeting": (("Meeting notes {n}", "Agenda for workshop {n}", "Planning call {n}"), "Work",
                ("Here are the notes from today.", "Does Thursday at ten work for everyone?",
                 "I moved the call to the small room.")),
    "invoice": (("Invoice {n} for March", "Payment reminder {n}", "Credit note {n}"), "Finance",
                ("Please find the invoice below; payment is due in 30 days.",
                 "Our records show this is still open.", "The credit note replaces the earlier invoice.")),
    "travel": (("Booking confirmation {n}", "Your trip itinerary ({n})", "Seat change {n}"), "Travel",
               ("Your booking is confirmed. Check-in opens 24 hours before departure.",
                "The train now leaves at 08:12 from platform 4.", "We changed your seat to 14C.")),
    "family": (("Dinner on Sunday ({n})", "Photos from the cabin ({n})", "Birthday plans {n}"), "Family",
               ("Shall we do dinner at ours this time?", "I put the photos in the shared album.",
                "Any ideas for a present this year?")),
    "receipt": (("Your order {n} has shipped", "Receipt for order {n}", "Return of order {n}"), "Receipts",
                ("Thanks for your order. It will arrive in 2-3 days.", "Your receipt is attached.",
                 "We received your return and will refund it within a week.")),
    "project": (("Garden shed project ({n})", "Website relaunch {n}", "Kickoff: migration {n}"), "Projects",
                ("Here is the plan for the next two weeks.", "The contractor can start on Monday.",
                 "I listed the open questions at the end.")),
}  # fmt: skip
REPLIES = (
    "Thanks, that works for me.", "Sounds good, see you then.", "I will take a look tomorrow.",
    "Could you send the latest version?", "Great, thank you for the quick answer.", "Noted, I will update the plan.",
)  # fmt: skip
DRAFTS = (
    ("Notes for the team offsite", "A few ideas for the agenda: planning, a walk, and dinner."),
    ("Question about the lease", "Hello, I would like to ask whether the lease can be extended by a year."),
    ("Volunteer sign-up", "I would be happy to help at the spring market on Saturday."),
    ("Feedback on the proposal", "I read the proposal and have three small suggestions."),
)
THREADS, MINE, TRASHED = 84, 8, 4
HOURS_BACK = 24 * 35


def contacts(r: random.Random) -> list[Contact]:
    names = [
        f"{f} {s}"
        for f, s in zip(r.sample(FIRST, 12) * 2, r.sample(LAST, 12) + r.sample(LAST, 12), strict=True)
    ]
    out: list[Contact] = []
    for name in dict.fromkeys(names):  # unique, in drawn order
        first, last = name.lower().split()
        out.append(
            Contact(id=f"P-{len(out) + 1:04d}", name=name, address=f"{first}.{last}@{r.choice(DOMAINS)}")
        )
    return out


def build(r: random.Random, seed: int) -> EmailState:
    state = EmailState(contacts=contacts(r))
    state.labels = [Label(id=f"G-{i:04d}", name=n, color=c) for i, (n, c) in enumerate(LABELS, start=1)]
    drafts: list[tuple[int, Thread, list[tuple[bool, str]]]] = []
    n = 1000
    for i in range(THREADS):
        n += r.randint(1, 37)
        topic = r.choice(sorted(TOPICS))
        subjects, label, lines = TOPICS[topic]
        when = -r.randint(60, HOURS_BACK * 60)
        mine = i < MINE
        who = r.choice(state.contacts)
        count = r.choice((1, 1, 2, 2, 3, 4))
        # (from me?, body) oldest first; a conversation you started opens with your message
        turns = [
            ((k % 2 == 0) == mine, r.choice(lines) if k == 0 else r.choice(REPLIES)) for k in range(count)
        ]
        t = Thread(id="", subject=r.choice(subjects).format(n=n), correspondent=who.name, last=stamp(when),
                   labels=[label] if r.random() < 0.5 else [], inbox=not mine and r.random() < 0.66,
                   starred=r.random() < 0.12, read=mine or r.random() < 0.5, trashed=TRASHED + MINE > i >= MINE)  # fmt: skip
        drafts.append((when, t, turns))
    drafts.sort(key=lambda d: (d[0], d[1].subject))  # ids in the order the conversations began
    for i, (when, t, turns) in enumerate(drafts, start=1):
        t.id = f"T-{i:04d}"
        who = next(c for c in state.contacts if c.name == t.correspondent)
        for k, (me, body) in enumerate(turns):
            at = when - (len(turns) - 1 - k) * r.randint(30, 300)
            state.messages.append(
                Message(
                    id="",
                    thread=t.id,
                    sender_name=state.me if me else who.name,
                    sender=MY_ADDRESS if me else who.address,
                    to=who.address if me else MY_ADDRESS,
                    subject=("Re: " if k else "") + t.subject,
                    body=f"Hi,\n\n{body}\n\nBest,\n" + (state.me if me else who.name.split()[0]),
                    created=stamp(at),
                )  # fmt: skip
            )
        state.threads.append(t)
    state.messages.sort(key=lambda m: (m.created, m.thread))
    for i, m in enumerate(state.messages, start=1):
        m.id = f"E-{i:04d}"
    for i, (subject, body) in enumerate(DRAFTS, start=1):
        state.drafts.append(Draft(id=f"D-{i:04d}", subject=subject, body=body, saved=stamp(-i * 200)))
    state.counter = len(state.threads) + len(state.messages) + len(state.drafts)
    return state
