"""seed/split_information: the catalogue shows unit codes only; their names are on the Units
page (on the calendar: an event shows its room's code, the Rooms page names it; on the
tracker: a card shows the assignee's user name, the Team page the person — any app whose
task names `unit` draws codes when `unit_display` is "code", with `#unit-note`, and a
`nav.tabs a[data-view="units"]` legend `#units`). State tracking: read the code on one page,
its meaning on another.

Real-world counterpart: codes explained on another page (a legend, a glossary).
"""

from __future__ import annotations

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext, Step
from webfovea_proving_ground.plan import L, click, visible


def _split(ctx: IvContext) -> None:
    ctx.session.state.unit_display = "code"
    ctx.fire("split", what="unit names moved to the Units page")


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    unit = task.targets["unit"]
    # The detour to the legend is marked: a misreading oracle (webfovea_proving_ground/oracle/misreads.py) that sees
    # the note pointing to the Units page may skip it and report the code the table shows.
    legend = {
        **click(L('nav.tabs a[data-view="units"]'), expect=visible(L("#units"))),
        "detour": "legend",
        "cue": visible(L("#unit-note")),
        "instead": plan[-1],
    }
    return [
        *plan[:-1],
        legend,
        {"op": "answer", "source": {"target": L(f'#units tr[data-id="{unit}"] td.name'), "attr": "text"}},
    ]


FAMILY = Family(
    name="seed/split_information",
    layer="seed",
    primitive="state tracking",
    summary="unit (room, user) codes in the table, event or card, their names on the Units (Rooms, Team) page",
    counterpart="codes explained on another page (a legend, a glossary)",
    cue="unit (room, user) codes and a note pointing to the Units (Rooms, Team) page",
    recovery="read the legend on the Units (Rooms, Team) page",
    needs=("unit",),
    retrieval_only=True,
    at_create=_split,
    recover=_recover,
)
