"""network/truncated_response: the first matching call is answered 200 with a cut-off JSON body
(the connection dropped mid-answer) and the app is not reached; the page says the answer was
unreadable. Patience: try again.

Added by this project (not in the seed's catalogue text). Real-world counterpart: a response
truncated by a dropped connection or a proxy timeout (a 200 that never completed).
"""

from __future__ import annotations

import random

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_proving_ground.sessions import Session

CUT = b'{"ok": true, "rec'


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return Effect(status=200, raw=CUT, note="truncated answer, app not reached") if ordinal == 1 else None


FAMILY = Family(
    name="network/truncated_response",
    layer="network",
    primitive="patience",
    summary="the first matching call gets a cut-off 200 answer; the app is not reached",
    counterpart="a response truncated by a dropped connection or proxy timeout",
    cue="the page's error 'the server sent an unreadable answer'",
    recovery="try again",
    own=True,
    needs=("submit_step",),
    network=NetworkRule("main", _decide),
)
