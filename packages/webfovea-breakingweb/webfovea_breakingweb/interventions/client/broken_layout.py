"""client/broken_layout: the page's layout breaks — form columns squashed so labels overlap
their inputs, the submit/apply button pushed far below the content. Exploration: find the
control that is no longer where the page suggests, by scrolling.

Real-world counterpart: a broken or half-loaded stylesheet / a responsive breakpoint gone
wrong (seed 003 §2.2, realistic: "a broken layout").
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import (
    GIVE_UP,
    Family,
    IvContext,
    Step,
    detour,
    submit_index,
    trap,
)
from webfovea_proving_ground.plan import scroll_to


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"broken_layout": {"selector": ctx.task.targets["submit"], "push_px": 1400}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    # Marked: a careless agent that sees no button under the form gives up.
    lost = trap(GIVE_UP, "control out of view", None)
    return [*plan[:i], lost, detour(scroll_to(plan[i]["target"]), "layout", None), *plan[i:]]


FAMILY = Family(
    name="client/broken_layout",
    layer="client",
    primitive="exploration",
    summary="squashed form columns, the submit/apply button pushed far below the content",
    counterpart="a broken or half-loaded stylesheet",
    cue="overlapping labels and no button in view under the form",
    recovery="scroll down to the button",
    needs=("form", "submit", "submit_step"),
    client=_client,
    recover=_recover,
)
