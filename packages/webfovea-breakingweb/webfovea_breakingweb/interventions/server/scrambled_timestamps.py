"""server/scrambled_timestamps: the timestamps of a list the task reads come out scrambled. The
server re-stores the list out of time order and writes about half of its dates in another
(unambiguous) notation — `27 Jan 2025`, `Jan 27, 2025` beside `2025-01-27` — so neither the
first row nor a sort by the text gives "the latest". The list is the one a task names in
`targets["order_sensitive"]` (the calendar's invitations, the shop's orders), else the
catalogue. Every row keeps its own instant: the asked record, and the answer, do not move.
Planning: "the latest" needs every date read and compared, not the first row taken.

Real-world counterpart: scrambled timestamps (seed 003 Table 1 and §2.2, server layer): a list
whose rows were synced from sources that write dates differently and lost their time order.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")  # a bare date; stamped times stay (apps parse them)
NOTATIONS = ("%d %b %Y", "%b %d, %Y")  # month by name: no day/month swap can change the instant


def _rows(ctx: IvContext) -> list[Any]:
    order = ctx.task.targets["order_sensitive"]
    # A list the page shows in its stored order (an entity's name), else the catalogue.
    rows: list[Any] = (
        getattr(ctx.session.state, order) if isinstance(order, str) else ctx.session.state.catalogue
    )
    return rows


def _scramble(ctx: IvContext) -> None:
    rows = _rows(ctx)
    before = [_id(r) for r in rows]
    for _ in range(10):  # a permutation that really moves the first and the last row (a page
        ctx.rng.shuffle(rows)  # may list the stored order either way: the shop's orders last first)
        if _id(rows[0]) != before[0] and _id(rows[-1]) != before[-1]:
            break
    rewritten = 0
    for i, row in enumerate(rows):
        if ctx.rng.random() < 0.5:
            continue
        notation = ctx.rng.choice(NOTATIONS)
        for key, value in _fields(row).items():
            if isinstance(value, str) and ISO_DAY.match(value):
                rows[i] = row = _with(row, key, date.fromisoformat(value).strftime(notation))
                rewritten += 1
    ctx.fire("scrambled", order=[_id(r) for r in rows], rewritten=rewritten)


def _fields(row: Any) -> dict[str, Any]:
    return dict(row) if isinstance(row, dict) else row.model_dump()


def _with(row: Any, key: str, value: str) -> Any:
    if isinstance(row, dict):
        return {**row, key: value}
    try:
        return type(row).model_validate({**row.model_dump(), key: value})
    except ValueError:  # a typed date field keeps its value (the order is still scrambled)
        return row


def _id(row: Any) -> str:
    return str(row["id"] if isinstance(row, dict) else row.id)


def _applies(task: StatefulTask, app: AppSpec) -> str | None:
    if task.targets.get("order_sensitive") is True and app.catalogue is None:
        return (
            "server/scrambled_timestamps needs a catalogue, or order_sensitive naming a list shown as stored"
        )
    return None


FAMILY = Family(
    name="server/scrambled_timestamps",
    layer="server",
    primitive="planning",
    summary="a list's rows come out of time order, about half their dates written another way (27 Jan 2025, Jan 27, 2025)",
    counterpart="scrambled timestamps: rows synced from sources that write dates differently, out of time order",
    cue="the dates are not in order and not in one notation",
    recovery="read and compare every date instead of taking the first row",
    needs=("order_sensitive",),
    applies=_applies,
    retrieval_only=True,
    at_create=_scramble,
)
