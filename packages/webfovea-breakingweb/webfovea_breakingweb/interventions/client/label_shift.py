"""client/label_shift: form labels are drawn one row below their inputs (the `for=`
associations stay right), so the label beside an input names the next one. Grounding: a
vision agent must read the layout, a structured agent is unaffected (an A/B lever).

Real-world counterpart: a form whose labels are misaligned with their inputs (a broken grid).
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.interventions.base import Family, IvContext


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"label_shift": {"rows": 1}}


FAMILY = Family(
    name="client/label_shift",
    layer="client",
    primitive="grounding",
    summary="labels drawn one row away from their inputs",
    counterpart="a form whose labels are misaligned with their inputs (a broken grid)",
    cue="each label is drawn beside the next input",
    recovery="read the layout (or the accessible names) before typing",
    needs=("form",),
    client=_client,
)
