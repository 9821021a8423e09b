"""server/single_field_corruption: one text field of the record the task acts on is stored
corrupted after seeding (an encoding error: "Missing inv\ufffdice"). Grounding: find the
record despite the damaged field, by its other details.

Real-world counterpart: mojibake from a broken import or a charset mismatch in one column
(seed 003 §2.2: the server layer's "single-field corruption"). Seeded: the field and the
position of the damaged character (rng(task, seed, variant, family)).
"""

from __future__ import annotations

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    GIVE_UP,
    Family,
    IvContext,
    Step,
    acted_record,
    named_fields,
    replaced,
    trap,
)

BAD = "\ufffd"  # the replacement character a failed decode leaves


def corrupt(value: str, at: int) -> str:
    letters = [i for i, c in enumerate(value) if c.isalpha() and i > 0]
    i = letters[at % len(letters)] if letters else 0
    return value[:i] + BAD + value[i + 1 :]


def _corrupt(ctx: IvContext) -> None:
    items, at = acted_record(ctx)
    fields = sorted(named_fields(items[at], ctx.task.instruction), key=lambda f: -len(getattr(items[at], f)))
    for name in fields:
        before = getattr(items[at], name)
        after = corrupt(before, ctx.rng.randrange(64))
        if replaced(items, at, name, after):
            ctx.fire("corrupted", record=items[at].id, field=name, stored=after)
            return
    ctx.fire("corrupted", record=items[at].id, field=None)


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    # Marked: a careless agent that finds no row with the exact name gives up.
    return [trap(GIVE_UP, "no exact match", None), *plan]


FAMILY = Family(
    name="server/single_field_corruption",
    layer="server",
    primitive="grounding",
    summary="one named text field of the asked record is stored with a damaged character",
    counterpart="mojibake from a broken import or charset mismatch",
    cue="the record's name shows a replacement character (\ufffd)",
    recovery="match the record by its other details (no extra action)",
    needs=("decoy_of",),
    at_create=_corrupt,
    recover=_recover,
)
