"""What every mail task template shares: picking instances, reading the seeded mailbox, and
building a `StatefulTask` with its tier and targets."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.mail.state import MailState, Message
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import Step

API = "/api/mail"


def tier(actions: int) -> str:
    """WebRetriever's tiers by the actions a person needs: easy < 6, medium 6-15, hard > 15."""
    return "easy" if actions < 6 else "medium" if actions <= 15 else "hard"


def pick(r: random.Random, pool: list[Any], n: int) -> list[Any]:
    """Up to `n` of `pool`, drawn without replacement (pool order is the content's: stable)."""
    return r.sample(pool, min(n, len(pool)))


def unique_subject(state: MailState, m: Message) -> bool:
    """Only this message's conversation carries its subject (search finds it by subject)."""
    return sum(1 for x in state.messages if x.subject == m.subject) == 1


def originals(state: MailState, *folders: str) -> list[Message]:
    """Conversation starters received in these folders, each findable by its subject."""
    return [
        m
        for m in state.messages
        if m.folder in folders and m.in_reply_to is None and m.sender != "Me" and unique_subject(state, m)
    ]


def answered(state: MailState, m: Message) -> bool:
    return any(m.id in (x.in_reply_to, x.forward_of) for x in state.messages)


def actions(plan: list[Step]) -> int:
    return sum(1 for s in plan if s["op"] != "answer")


def make(
    template: str,
    n: int,
    instruction: str,
    plan: list[Step],
    *,
    answer: Any = None,
    obligations: list[dict[str, Any]] | None = None,
    targets: dict[str, Any] | None = None,
    app: str = "mail",
) -> StatefulTask:
    """One instance `n` of `template` (id `<app>-<template>-NN`); a retrieval task has an answer."""
    state_changing = answer is None
    return StatefulTask(
        task_id=f"{app}-{template}-{n:02d}",
        app=app,
        instruction=instruction,
        category="form interaction" if state_changing else "complete data retrieval",
        failure_classes=sorted({s["op"] for s in plan if s["op"] in ("fill", "select")}),
        answer=answer,
        state_changing=state_changing,
        obligations=obligations or [],
        plan=plan,
        # After a sign-in the page shows the view it was on: a retrieval reads its answer there.
        targets={
            "template": template,
            "tier": tier(actions(plan)),
            "redo_from": 0 if state_changing else len(plan) - 1,
            **(targets or {}),
        },
    )


def opened(mid: str) -> dict[str, Any]:
    """A retrieval obligation: the page asked the server for this message (the answer's source)."""
    return {
        "request": {
            "path": f"{API}/messages/{mid}",
            "method": "GET",
            "which": "any",
            "status": {"lt": 400},
            "label": f"message {mid} was opened",
        }
    }


def listed(why: str, **query: str) -> dict[str, Any]:
    """A retrieval obligation: some answered list request carried these query values."""
    return {
        "request": {
            "path": f"{API}/messages",
            "method": "GET",
            "which": "any",
            "query": query,
            "status": {"lt": 400},
            "label": why,
        }
    }
