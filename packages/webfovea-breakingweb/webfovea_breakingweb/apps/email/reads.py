"""The email site's retrieval templates: the unread counts the sidebar shows beside the inbox and
each label (re-read from `/labels` on every view). seed/planted_answer (`figure`) puts a stale
count in a Key figures box above the mailbox; the oracle reads the sidebar's count."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.email.common import API, KIT
from webfovea_breakingweb.apps.email.state import EmailState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, visible


def t_unread_count(state: EmailState, r: random.Random, n: int) -> StatefulTask | None:
    unread = [t for t in state.threads if not t.trashed and not t.read]
    counts = {"": sum(1 for t in unread if t.inbox)}
    counts.update({x.name: sum(1 for t in unread if x.name in t.labels) for x in state.labels})
    where = r.choice(sorted(k for k, v in counts.items() if v))  # a zero count is not shown at all
    link = f'.label-link[data-label="{where}"]' if where else "#nav-inbox"
    plan = [
        click(L("#nav-inbox"), expect=visible(L("#threads"))),
        answer(L(f"{link} .count"), regex=r"(\d+)"),
    ]
    what = f"conversations labelled {where}" if where else "conversations in your inbox"
    return KIT.read(
        "unread-count", n, f"On pinemail, how many unread {what} are there? Report the number.",
        plan, str(counts[where]), f"{API}/labels",
        {"submit": "#nav-inbox", "submit_step": 0,
         "figure": {"name": f"Unread {what}", "value": str(counts[where])}},
    )  # fmt: skip


TEMPLATES = {"unread-count": t_unread_count}
