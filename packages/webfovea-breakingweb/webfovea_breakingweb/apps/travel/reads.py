"""The stays site's retrieval templates: what a traveller reads off the messages inbox. The inbox
lists messages as stored (newest first), so server/scrambled_timestamps (`order_sensitive:
"messages"`) makes "the most recent" a matter of reading every sent time; seed/split_information
(`unit`: the property) shows property codes, their names on the Codes legend. The oracle reads
the true row (by id) or, recovering, the legend."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.travel.common import API, KIT
from webfovea_breakingweb.apps.travel.state import TravelState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer, click, visible

_KINDS = {"": "message", "unread": "unread message", "read": "message you have read"}


def t_latest_message_from(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    kind = r.choice(sorted(_KINDS))
    group = [
        m for m in state.messages
        if m.folder == "inbox" and m.property and (not kind or m.read == (kind == "read"))
    ]  # fmt: skip
    ranked = sorted(group, key=lambda m: m.created, reverse=True)
    if len(ranked) < 2 or ranked[0].created == ranked[1].created:  # a tie: no one "most recent"
        return None
    top = ranked[0]
    plan = [
        click(L("#nav-messages"), expect=visible(L("#messages tbody tr"))),
        answer(L(f'#messages tr[data-id="{top.id}"] td.who')),
    ]
    return KIT.read(
        "latest-message-from", n,
        f"On roamly, which property sent you your most recent {_KINDS[kind]}? Report the property's name.",
        plan, top.sender, f"{API}/messages",
        {"submit": "#nav-messages", "submit_step": 0, "order_sensitive": "messages", "unit": top.property},
    )  # fmt: skip


TEMPLATES = {"latest-message-from": t_latest_message_from}
