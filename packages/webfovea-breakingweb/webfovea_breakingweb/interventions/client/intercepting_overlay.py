"""client/intercepting_overlay: after the second pointer-down (the first, on a task with one
click) a newsletter dialog covers the page and takes every click until it is closed.
Exploration: find and close it.

Real-world counterpart: a newsletter / promotion modal that opens mid-task.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext, Step
from webfovea_proving_ground.plan import L, click


def _opens_after(task: StatefulTask) -> int:
    """The second pointer-down, or the first on a plan with a single click."""
    return 2 if sum(s.get("op") == "click" for s in task.plan) >= 2 else 1


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"overlay": {"after_pointerdowns": _opens_after(ctx.task)}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    # The dialog opens on the n-th click the agent makes; close it right after that click.
    clicks = [i for i, s in enumerate(plan) if s.get("op") == "click"]
    if not clicks:
        return list(plan)
    at = clicks[min(len(clicks), _opens_after(task)) - 1] + 1
    close = click(L("#iv-overlay .iv-close"), expect={"target": L("#iv-overlay"), "visible": False})
    # Marked: a misreading oracle (webfovea_proving_ground/oracle/misreads.py) that sees the dialog may leave it open.
    close = {**close, "detour": "dialog", "cue": {"target": L("#iv-overlay"), "visible": True}}
    return [*plan[:at], close, *plan[at:]]


FAMILY = Family(
    name="client/intercepting_overlay",
    layer="client",
    primitive="exploration",
    summary="a dialog covers the page after the second pointer-down and eats clicks until closed",
    counterpart="a newsletter / promotion modal that opens mid-task",
    cue="a dialog over the page",
    recovery="close it ('No thanks')",
    client=_client,
    recover=_recover,
)
