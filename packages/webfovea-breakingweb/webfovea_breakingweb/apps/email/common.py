"""What the email site's task templates share: finding conversations in the seeded mailbox and
building a `StatefulTask` with its five-scale tier and the targets the families aim at.

Opening an unread conversation marks it read (as a webmail does), so a task that opens one
names that change too (`thread_ob`); a reply or forward moves the conversation's `last` time,
which every task lists as noise (its value depends on how many writes came before)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from webfovea_breakingweb.apps.email.state import Contact, EmailState, Thread
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.determinism import EPOCH, stamp
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here

API = "/api/env/email"
PAGE = "/env/email"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
NOISE = ["last"]


KIT = kit.TaskKit("email", PAGE, SIGN_IN, listing=f"{API}/threads", noise=tuple(NOISE))
write_targets = KIT.write_targets
make = KIT.make


def inbox(state: EmailState, *, read: bool | None = None) -> list[Thread]:
    """Conversations in the inbox (not trashed, with messages), optionally only (un)read ones."""
    return [t for t in state.threads if t.inbox and not t.trashed and (read is None or t.read == read)]


def live(state: EmailState) -> list[Thread]:
    """Conversations a search finds (not in the trash)."""
    return [t for t in state.threads if not t.trashed]


def contact(state: EmailState, name: str) -> Contact:
    return next(c for c in state.contacts if c.name == name)


def last_message(state: EmailState, tid: str) -> str:
    return [m.id for m in state.messages if m.thread == tid][-1]


def delete(entity: str, rid: str) -> dict[str, Any]:
    return {"entity": entity, "op": "delete", "id": rid}


def thread_ob(t: Thread, *, opened: bool = True, **fields: Any) -> dict[str, Any] | None:
    """The update a task makes to one conversation: `fields`, and read if it opens an unread one."""
    got = {**({"read": True} if opened and not t.read else {}), **fields}
    return update("threads", t.id, **got) if got else None


def obs(*items: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [i for i in items if i is not None]


def lookalike(state: EmailState, r: random.Random, t: Thread) -> dict[str, Any]:
    """The seed families' targets for an inbox conversation: the record, and how a look-alike of
    it differs (the same subject from another correspondent, a minute newer, so just above it)."""
    other = r.choice(sorted({c.name for c in state.contacts} - {t.correspondent}))
    minutes = int(_minutes(t.last)) + 1
    return {"decoy_of": t.id, "decoy": {"correspondent": other, "last": stamp(minutes)}}


def _minutes(when: str) -> float:
    return (datetime.fromisoformat(when.replace("Z", "+00:00")) - EPOCH).total_seconds() / 60
