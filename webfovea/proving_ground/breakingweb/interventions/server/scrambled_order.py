"""server/scrambled_order: the default order of the catalogue is shuffled instead of newest
release first. Planning: "the latest" needs the dates read, not the first row taken.

Real-world counterpart: a list whose default sort is not the one it seems (scrambled timestamps).
"""

from __future__ import annotations

from webfovea.proving_ground.breakingweb.interventions.base import Family, IvContext


def _scramble(ctx: IvContext) -> None:
    cat = ctx.session.state.catalogue
    before = [r["id"] for r in cat]
    for _ in range(10):  # a permutation that really moves the first row
        ctx.rng.shuffle(cat)
        if cat[0]["id"] != before[0]:
            break
    ctx.fire("scrambled", order=[r["id"] for r in cat])


FAMILY = Family(
    name="server/scrambled_order",
    layer="server",
    primitive="planning",
    summary="the catalogue's default order is shuffled (no longer newest release first)",
    counterpart="a list whose default sort is not the one it seems (scrambled timestamps)",
    cue="the release dates are not in order",
    recovery="read the dates instead of taking the first row",
    needs=("order_sensitive",),
    app_needs=("catalogue",),
    retrieval_only=True,
    at_create=_scramble,
)
