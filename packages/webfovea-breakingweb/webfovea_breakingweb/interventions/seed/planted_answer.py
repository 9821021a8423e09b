"""seed/planted_answer: a prominent "Key figures" box shows a stale value for the very series
the task asks about; the true value is in the filtered table. On an app with its own page
the box stands above the app (engine/mount.py) with a stale value of the figure a retrieval
task names (`targets["figure"]`: a count of events, of tickets); the view shows the true one. Backtracking: an agent that
takes the first number it sees must notice the "as of" note and go to the table.

Real-world counterpart: a stale figure in a prominent summary box (an outdated cached widget, an old press figure).
"""

from __future__ import annotations

from webfovea_breakingweb.interventions.base import Family, IvContext


def _asked(ctx: IvContext) -> tuple[str, str, str]:
    """The asked quantity: a catalogue series (its row), or a figure an app's page can show."""
    if "series" in ctx.task.targets:
        sid = ctx.task.targets["series"]
        row = next(r for r in ctx.session.state.catalogue if r["id"] == sid)
        return sid, row["name"], row["value"]
    fig = ctx.task.targets["figure"]
    return fig["name"], fig["name"], str(fig["value"])


def _plant(ctx: IvContext) -> None:
    sid, name, true = _asked(ctx)
    stale = true
    if true.replace(",", "") in ("0", "1"):  # a small count: a scaled one would not differ
        stale = str(int(true) + 2)
    while stale == true:  # a different number in the same format
        stale = (
            f"{float(true.replace(',', '')) * ctx.rng.uniform(0.82, 0.95):.1f}"
            if "." in true
            else f"{int(int(true.replace(',', '')) * ctx.rng.uniform(0.82, 0.95)):,}"
        )
    ctx.session.state.key_figures.append(
        {
            "id": "K1",
            "name": name,
            "value": stale,
            "note": f"as of {ctx.rng.choice(['March', 'June', 'October'])} 2022",
        }
    )
    ctx.fire("planted", series=sid, value=stale)


FAMILY = Family(
    name="seed/planted_answer",
    layer="seed",
    primitive="backtracking",
    summary="a Key figures box with a stale value for the asked series or count; the true value is in the table or view",
    counterpart="a stale figure in a prominent summary box (an outdated cached widget, an old press figure)",
    cue="the box's small print 'as of … 2022'; the filtered table disagrees",
    recovery="read the value from the filtered table",
    detect="readback",
    needs_any=("series", "figure"),
    retrieval_only=True,
    belief=True,
    at_create=_plant,
)
