"""The tracker a seed starts with: 160 tickets over five columns, ~300 comments, a team of
ten. Deterministic by the generator the engine hands over (one per seed), so every task of
a seed, and the task generator, see the same tickets. Titles are unique (area: problem)."""

from __future__ import annotations

import random
from datetime import timedelta

from webfovea_breakingweb.apps.tracker.state import (
    COLUMNS,
    ME,
    PRIORITIES,
    Comment,
    Label,
    Ticket,
    TrackerState,
    User,
)
from webfovea_breakingweb.engine.determinism import EPOCH

TEAM = (
    "Ada Berg",
    "Ola Nord",
    "Kari Vik",
    "Per Lunde",
    "Siri Dahl",
    "Jon Moe",
    "Liv Aas",
    "Nils Ek",
    "Mira Holm",
)
LABELS = (
    ("bug", "Bug", "#b03a2e"),
    ("feature", "Feature", "#2f6fb0"),
    ("docs", "Docs", "#6b6b6b"),
    ("ux", "UX", "#a0449b"),
    ("performance", "Performance", "#c77d14"),
    ("security", "Security", "#2e8b57"),
)
AREAS = (
    "Login page",
    "Search",
    "CSV export",
    "Dashboard",
    "Release calendar",
    "Data catalogue",
    "User settings",
    "API gateway",
    "Chart widget",
    "Notifications",
    "Billing",
    "Table viewer",
    "Mobile layout",
    "Sign-up form",
    "Audit log",
    "Map view",
)
PROBLEMS = (
    "times out on submit",
    "shows stale values",
    "breaks with long names",
    "needs keyboard support",
    "loads slowly on first visit",
    "loses filters on reload",
    "misaligned on small screens",
    "wrong totals for some months",
    "missing translation",
    "add an export button",
    "document the options",
    "rate limit too strict",
)
NOTES = (
    "I can reproduce this on the staging server.",
    "Could this wait until the next sprint?",
    "Added a screenshot to the description.",
    "The fix is ready for review.",
    "Customers have asked about this twice this week.",
    "Blocked until the API change is deployed.",
    "Tested on Firefox and Chromium: same result.",
    "Let's pair on this tomorrow.",
)
TICKETS = 160


def _stamp(minutes: int) -> str:
    return (EPOCH - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def build(r: random.Random, seed: int) -> TrackerState:
    state = TrackerState()
    state.users = [User(id=ME, name="Analyst (you)")] + [
        User(id=f"u-{n.split()[0].lower()}", name=n) for n in TEAM
    ]
    state.labels = [Label(id=i, name=n, color=c) for i, n, c in LABELS]
    titles = [f"{a}: {p}" for a in AREAS for p in PROBLEMS]
    r.shuffle(titles)
    people = [u.id for u in state.users]
    for i, title in enumerate(sorted(titles[:TICKETS], key=lambda t: r.random()), 1):
        born = r.randint(60 * 24 * 3, 60 * 24 * 200)
        updated = r.randint(60, born)
        status = r.choices([c for c, _ in COLUMNS], (25, 25, 20, 12, 18))[0]
        labels = sorted(r.sample([lab.id for lab in state.labels], r.choice((0, 1, 1, 2))))
        state.tickets.append(
            Ticket(
                id=f"T-{i:04d}",
                title=title,
                description=f"{title.split(':')[0]} {title.split(': ')[1]}. Reported by a user of the portal.",
                status=status,  # type: ignore[arg-type]
                priority=r.choices([p for p, _ in PRIORITIES], (25, 40, 25, 10))[0],  # type: ignore[arg-type]
                assignee=None if status == "backlog" and r.random() < 0.5 else r.choice(people[1:]),
                reporter=r.choice(people),
                labels=labels,
                estimate=r.choice((1, 2, 3, 5, 8, 13)),
                created=_stamp(born),
                updated=_stamp(updated),
            )
        )
        for k in range(r.choice((0, 0, 1, 2, 2, 3, 4))):
            when = _stamp(max(1, updated - k * r.randint(30, 600)))
            state.comments.append(
                Comment(
                    id=f"C-{len(state.comments) + 1:04d}",
                    ticket=f"T-{i:04d}",
                    author=r.choice(people[1:]),
                    body=r.choice(NOTES),
                    created=when,
                    updated=when,
                )
            )
    state.counter = len(state.tickets)
    return state
