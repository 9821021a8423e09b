"""seed/decoys: near-duplicates sit just above the asked entry. Grounding: pick it by every
detail the instruction gives, not by the first row that looks right.

- the catalogue (a retrieval task naming `series`): rows "… (discontinued series)", "… (2010=100)"
  with other values above the true row;
- the case mailbox (a task naming `decoy_of`, the case it acts on): a case with the same
  subject from another sender, listed just above it (seeded, so clean and intervention runs
  differ only by it; acting on it breaks an invariant and leaves the obligation unmet);
- any other app's record (a task naming `decoy_of` and `decoy`, the fields in which the
  look-alike differs from it — a same-title event in another week, a payee of the same name
  with another IBAN, an invitation to the same event from another sender): a copy with the
  next id of its list and those fields, inserted just above it.
Booking has no place for one: its create task already offers a look-alike tour ("… (express)"),
and its cancel task names the reservation by number.

Real-world counterpart: near-duplicate listings (discontinued series, a same-subject mail from another sender).
"""

from __future__ import annotations

from webfovea_breakingweb.engine.store import next_id
from webfovea_breakingweb.interventions.base import Family, IvContext, acted_record

SUFFIXES = ("(discontinued series)", "(2010=100)", "(provisional)", "(old methodology)")


def _catalogue_decoys(ctx: IvContext) -> None:
    cat = ctx.session.state.catalogue
    sid = ctx.task.targets["series"]
    at = next(i for i, r in enumerate(cat) if r["id"] == sid)
    true = cat[at]
    suffixes = ctx.rng.sample(SUFFIXES, 2)
    for n, suffix in enumerate(suffixes, 1):
        value = true["value"]
        alt = (
            f"{float(value.replace(',', '')) * ctx.rng.uniform(0.7, 0.97):.1f}"
            if "." in value
            else f"{int(int(value.replace(',', '')) * ctx.rng.uniform(0.7, 0.97)):,}"
        )
        cat.insert(at, {**true, "id": f"{sid}D{n}", "name": f"{true['name']} {suffix}", "value": alt})
    ctx.fire("decoys", series=sid, count=len(suffixes))


def _record_decoy(ctx: IvContext) -> None:
    state = ctx.session.state
    rid = ctx.task.targets["decoy_of"]
    at = next(i for i, r in enumerate(state.records) if r.id == rid)
    true = state.records[at]
    others = sorted({r.sender for r in state.records} - {true.sender})
    state.counter += 1
    decoy = true.model_copy(
        update={"id": f"{ctx.app.id_prefix}{state.counter:04d}", "sender": ctx.rng.choice(others)}
    )
    state.records.insert(at, decoy)
    ctx.fire("decoys", of=rid, decoy=decoy.id)


def _lookalike(ctx: IvContext) -> None:
    items, at = acted_record(ctx)
    true = items[at]
    prefix = true.id.rstrip("0123456789")
    decoy = type(true).model_validate(
        {**true.model_dump(), **ctx.task.targets["decoy"], "id": next_id(items, prefix)}
    )
    items.insert(at, decoy)
    ctx.fire("decoys", of=true.id, decoy=decoy.id)


def _decoys(ctx: IvContext) -> None:
    if "series" in ctx.task.targets and ctx.session.state.catalogue:
        _catalogue_decoys(ctx)
    elif "decoy" in ctx.task.targets:
        _lookalike(ctx)
    else:
        _record_decoy(ctx)


FAMILY = Family(
    name="seed/decoys",
    layer="seed",
    primitive="grounding",
    summary="near-duplicates with other values (catalogue rows, a same-subject case, a same-title event) above the asked one",
    counterpart="near-duplicate listings (discontinued series, a same-subject mail from another sender)",
    cue="look-alike rows with a suffix or another sender above the asked one",
    recovery="pick the row by every detail the instruction gives",
    needs_any=("series", "decoy_of"),
    at_create=_decoys,
)
