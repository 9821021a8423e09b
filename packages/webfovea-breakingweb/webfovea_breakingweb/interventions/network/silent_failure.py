"""network/silent_failure: the first write answers 200 with an empty success (`{"ok": true}`:
no record, no message) and nothing is stored; the page shows no confirmation and no error.
Verification: notice that nothing confirmed the change, re-read, submit again.

Real-world counterpart: a write dropped without an error (a queue that loses the job, a
handler that swallows an exception and answers 200) — seed 003 Table 1, verification: "silent
fail". Unlike network/fabricated_success no "Saved" is shown: the cue is the missing one.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_proving_ground.sessions import Session


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return (
        Effect(status=200, body={"ok": True}, note="empty success, nothing stored") if ordinal == 1 else None
    )


FAMILY = Family(
    name="network/silent_failure",
    layer="network",
    primitive="verification",
    summary="the first write answers an empty 200 and stores nothing; no confirmation, no error",
    counterpart="a write dropped without an error (swallowed exception, lost job)",
    cue="no confirmation after the submit; the re-read list lacks the change",
    recovery="see that nothing confirmed it, submit again",
    needs=("write", "submit_step"),
    state_only=True,
    network=NetworkRule("write", _decide),
)
