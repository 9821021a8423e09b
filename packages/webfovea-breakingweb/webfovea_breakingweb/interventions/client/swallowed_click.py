"""client/swallowed_click: the first click on the task's submit/apply button does nothing
(a capture-phase listener stops it). Exploration: notice nothing happened, click again.

Real-world counterpart: a click lost to a slow script or a double-bound handler.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.interventions.base import Family, IvContext


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"swallow": {"selector": ctx.task.targets["submit"], "clicks": [1]}}


FAMILY = Family(
    name="client/swallowed_click",
    layer="client",
    primitive="exploration",
    summary="the first click on Submit/Apply is swallowed",
    counterpart="a click lost to a slow script or a double-bound handler",
    cue="nothing happens after the click",
    recovery="click again",
    needs=("submit",),
    client=_client,
)
