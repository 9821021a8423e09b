"""seed/aliases: the record the task acts on is listed under an alias of the name the
instruction uses ("Ada Berg" appears as "Berg, A."). Grounding: recognise the asked record by
all its details, not by an exact string match.

Real-world counterpart: the same contact or item shown under another form of its name (CRM
"Last, First" display, a product's short name) — seed 003 Table 1, grounding: "decoys &
aliases". Seeded: which named field is aliased (rng(task, seed, variant, family)).
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


def alias(value: str) -> str | None:
    """'Ada Berg' -> 'Berg, A.'; a longer text -> its words in the form a list header shows."""
    words = value.split()
    if len(words) == 2 and all(w[:1].isupper() for w in words):
        return f"{words[1]}, {words[0][0]}."
    if len(words) >= 2:
        return value.upper()
    return None


def _alias(ctx: IvContext) -> None:
    items, at = acted_record(ctx)
    fields = named_fields(items[at], ctx.task.instruction)
    ctx.rng.shuffle(fields)
    fields.sort(key=lambda f: len(getattr(items[at], f).split()) != 2)  # a person's name first
    for name in fields:
        shown = alias(getattr(items[at], name))
        if shown and replaced(items, at, name, shown):
            ctx.fire("aliased", record=items[at].id, field=name, shown=shown)
            return
    ctx.fire("aliased", record=items[at].id, field=None)


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    # Marked: a careless agent that finds no row with the exact name gives up.
    return [trap(GIVE_UP, "no exact match", None), *plan]


FAMILY = Family(
    name="seed/aliases",
    layer="seed",
    primitive="grounding",
    summary="the asked record is listed under an alias of the name the instruction uses",
    counterpart="a contact or item listed under another form of its name",
    cue="no row carries the exact name; one row matches every other detail",
    recovery="pick the row by all its details (no extra action)",
    needs=("decoy_of",),
    at_create=_alias,
    recover=_recover,
)
