"""The social site's retrieval templates: what a member reads off the private messages inbox.
The inbox lists messages as stored (newest first), so server/scrambled_timestamps
(`order_sensitive: "messages"`) makes "the most recent" a matter of reading every sent time;
the oracle reads the true row (by id)."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.social.common import API, KIT
from webfovea_breakingweb.apps.social.state import SocialState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, visible

_KINDS = {"": "private message", "unread": "unread private message", "read": "private message you have read"}


def t_latest_message_sender(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    kind = r.choice(sorted(_KINDS))
    group = [m for m in state.messages if m.folder == "inbox" and (not kind or m.read == (kind == "read"))]
    ranked = sorted(group, key=lambda m: m.created, reverse=True)
    if len(ranked) < 2 or ranked[0].created == ranked[1].created:  # a tie: no one "most recent"
        return None
    top = ranked[0]
    plan = [
        click(L("#nav-messages"), expect=visible(L("#messages tbody tr"))),
        answer(L(f'#messages tr[data-id="{top.id}"] td:first-child'), regex=r"u/(\S+)"),
    ]
    return KIT.read(
        "latest-message-sender", n,
        f"On threadly, who sent you your most recent {_KINDS[kind]}? Report their user name (without u/).",
        plan, top.sender, f"{API}/messages",
        {"submit": "#nav-messages", "submit_step": 0, "order_sensitive": "messages"},
    )  # fmt: skip


TEMPLATES = {"latest-message-sender": t_latest_message_sender}
