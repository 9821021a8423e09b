"""server/hidden_labels: the server serves the app's page with its form labels not drawn. The
labels stay in the document (transparent, so assistive technology and the accessibility tree
still read them) and the inputs keep their placeholders and order. Decided once when the
session is made (`session.extra["server_css"]`, engine/mount.py adds it to the page it
serves), as the server layer does its structural changes. Grounding: tell the inputs apart by
their position, their kind and their accessible names.

Real-world counterpart: a form served without visible labels (placeholder-only or icon-only
fields, a template that lost its label text); seed 003 §2.2 lists "hidden labels" among the
server layer's structural mutations.
"""

from __future__ import annotations

from webfovea_breakingweb.interventions.base import Family, IvContext

# `label.iv`: the labels the client-layer families draw themselves stay readable.
CSS = "label:not(.iv){color:transparent !important;text-shadow:none !important}"


def _hide(ctx: IvContext) -> None:
    ctx.session.extra["server_css"] = CSS
    ctx.fire("labels_hidden", where="served page")


FAMILY = Family(
    name="server/hidden_labels",
    layer="server",
    primitive="grounding",
    summary="the page is served with its form labels not drawn (still in the accessibility tree)",
    counterpart="placeholder-only / icon-only form fields (a template that lost its label text)",
    cue="inputs with no visible label",
    recovery="tell the inputs apart by position, kind and accessible name before typing",
    needs=("form",),
    at_create=_hide,
)
