"""seed/planted_answer: a prominent "Key figures" box shows a stale value for the very series
the task asks about; the true value is in the filtered table. Backtracking: an agent that
takes the first number it sees must notice the "as of" note and go to the table.

Real-world counterpart: a stale figure in a prominent summary box (an outdated cached widget, an old press figure).
"""

from __future__ import annotations

from webfovea.proving_ground.breakingweb.interventions.base import Family, IvContext


def _plant(ctx: IvContext) -> None:
    sid = ctx.task.targets["series"]
    row = next(r for r in ctx.session.state.catalogue if r["id"] == sid)
    true = row["value"]
    stale = true
    while stale == true:  # a different number in the same format
        stale = (
            f"{float(true.replace(',', '')) * ctx.rng.uniform(0.82, 0.95):.1f}"
            if "." in true
            else f"{int(int(true.replace(',', '')) * ctx.rng.uniform(0.82, 0.95)):,}"
        )
    ctx.session.state.key_figures.append(
        {
            "id": "K1",
            "name": row["name"],
            "value": stale,
            "note": f"as of {ctx.rng.choice(['March', 'June', 'October'])} 2022",
        }
    )
    ctx.fire("planted", series=sid, value=stale)


FAMILY = Family(
    name="seed/planted_answer",
    layer="seed",
    primitive="backtracking",
    summary="a Key figures box with a stale value for the asked series; the true value is in the filtered table",
    counterpart="a stale figure in a prominent summary box (an outdated cached widget, an old press figure)",
    cue="the box's small print 'as of … 2022'; the filtered table disagrees",
    recovery="read the value from the filtered table",
    detect="readback",
    needs=("series",),
    app_needs=("catalogue",),
    retrieval_only=True,
    belief=True,
    at_create=_plant,
)
