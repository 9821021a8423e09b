"""server/scrambled_order: the default order of the catalogue is shuffled instead of newest
release first (or of another list the page shows as stored, which a task names in
`targets["order_sensitive"]`: the calendar's invitations, newest first; the shop's orders,
which it lists last stored first). Planning: "the latest" needs the dates read, not the first row taken.

Real-world counterpart: a list whose default sort is not the one it seems (scrambled timestamps).
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext


def _scramble(ctx: IvContext) -> None:
    order = ctx.task.targets["order_sensitive"]
    # A list the page shows in its stored order (an entity's name), else the catalogue.
    cat = getattr(ctx.session.state, order) if isinstance(order, str) else ctx.session.state.catalogue
    before = [_id(r) for r in cat]
    for _ in range(10):  # a permutation that really moves the first and the last row (a page
        ctx.rng.shuffle(cat)  # may list the stored order either way: the shop's orders last first)
        if _id(cat[0]) != before[0] and _id(cat[-1]) != before[-1]:
            break
    ctx.fire("scrambled", order=[_id(r) for r in cat])


def _id(row: Any) -> str:
    return str(row["id"] if isinstance(row, dict) else row.id)


def _applies(task: StatefulTask, app: AppSpec) -> str | None:
    if task.targets.get("order_sensitive") is True and app.catalogue is None:
        return "server/scrambled_order needs a catalogue, or order_sensitive naming a list shown as stored"
    return None


FAMILY = Family(
    name="server/scrambled_order",
    layer="server",
    primitive="planning",
    summary="a list's default order is shuffled (the catalogue no longer newest release first, invitations and orders no longer newest first)",
    counterpart="a list whose default sort is not the one it seems (scrambled timestamps)",
    cue="the dates (of release, of receipt, of the order) are not in order",
    recovery="read the dates instead of taking the first row",
    needs=("order_sensitive",),
    applies=_applies,
    retrieval_only=True,
    at_create=_scramble,
)
