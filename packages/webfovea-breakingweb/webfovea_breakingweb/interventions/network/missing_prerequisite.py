"""network/missing_prerequisite: every write answers 428 Precondition Required ("accept the
updated terms of use first") until the user accepts them in the banner at the top of the page
(client part: iv.js `terms`); nothing is stored before. Planning: put the prerequisite first.

Real-world counterpart: a changed terms-of-service gate or an unverified-account gate that
blocks writes until acknowledged (seed 003 Table 1, planning: "missing prerequisites").
The acceptance is the session's (the audit records it), not the app's state: the task's
success criterion does not change.
"""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    Effect,
    Family,
    IvContext,
    NetworkRule,
    Step,
    detour,
)
from webfovea_proving_ground.plan import L, click, visible
from webfovea_proving_ground.sessions import Session

BODY = {
    "ok": False,
    "prerequisite": "terms",
    "error": "Before you can make changes, accept the updated terms of use (banner at the top of the page).",
}


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    if session.extra.get("flags", {}).get("terms_accepted"):
        return None
    return Effect(status=428, body=BODY, note="terms not accepted")


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"terms": {"accepted": False}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    cue = visible(L("#iv-terms"))
    accept = [
        {
            **detour(
                click(L("#iv-terms .iv-review"), expect=visible(L("#iv-terms-accept"))), "prerequisite", cue
            ),
            "span": 2,
        },
        click(L("#iv-terms-accept"), expect={"target": L("#iv-terms"), "visible": False}),
    ]
    return [*accept, *plan]


FAMILY = Family(
    name="network/missing_prerequisite",
    layer="network",
    primitive="planning",
    summary="writes answer 428 until the updated terms are accepted in a banner",
    counterpart="terms-of-service / unverified-account gate before any write",
    cue="a banner 'our terms of use have changed'; a write answers 428 naming it",
    recovery="accept the terms first, then make the change",
    needs=("write", "submit_step"),
    state_only=True,
    network=NetworkRule("write", _decide),
    client=_client,
    recover=_recover,
)
