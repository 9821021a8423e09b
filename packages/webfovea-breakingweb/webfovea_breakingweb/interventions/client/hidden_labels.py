"""client/hidden_labels: a form's labels are not drawn (they stay in the DOM for assistive
technology, and each input shows its label as a tooltip on hover). Grounding: tell the inputs
apart by their position, their kind and the hover text.

Real-world counterpart: placeholder-only or icon-only forms whose labels appear on hover
(seed 003 §2.2 lists "hidden labels" on the server layer; our apps draw their labels in the
browser, so the family acts there).
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.interventions.base import Family, IvContext


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"hide_labels": {"tooltip": True}}


FAMILY = Family(
    name="client/hidden_labels",
    layer="client",
    primitive="grounding",
    summary="form labels not drawn; each input names itself only in a hover tooltip",
    counterpart="placeholder-only / icon-only form fields",
    cue="inputs with no visible label",
    recovery="hover an input (or read its accessible name) before typing",
    needs=("form",),
    client=_client,
)
