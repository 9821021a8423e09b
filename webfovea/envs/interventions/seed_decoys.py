"""seed/decoys: near-duplicate catalogue rows ("… (discontinued series)", "… (2010=100)") sit
just above the true row with other values. Grounding: pick the row by its exact name."""

from __future__ import annotations

from .base import Family, IvContext

SUFFIXES = ("(discontinued series)", "(2010=100)", "(provisional)", "(old methodology)")


def _decoys(ctx: IvContext) -> None:
    cat = ctx.session.state.catalogue
    sid = ctx.task.targets["series"]
    at = next(i for i, r in enumerate(cat) if r["id"] == sid)
    true = cat[at]
    suffixes = ctx.rng.sample(SUFFIXES, 2)
    for n, suffix in enumerate(suffixes, 1):
        value = true["value"]
        alt = f"{float(value.replace(',', '')) * ctx.rng.uniform(0.7, 0.97):.1f}" if "." in value else \
            f"{int(int(value.replace(',', '')) * ctx.rng.uniform(0.7, 0.97)):,}"
        cat.insert(at, {**true, "id": f"{sid}D{n}", "name": f"{true['name']} {suffix}", "value": alt})
    ctx.fire("decoys", series=sid, count=len(suffixes))


FAMILY = Family(
    name="seed/decoys", layer="seed", primitive="grounding",
    summary="near-duplicate rows with other values above the asked series",
    needs=("series",), app_needs=("catalogue",), retrieval_only=True, at_create=_decoys,
)
