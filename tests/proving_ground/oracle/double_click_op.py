"""A throwaway plan op, written as a module under `webfovea_proving_ground/oracle/ops/` would be: its
typed record, its handler, its `OPS`. `catalog.register(double_click_op)` adds it the way
`_MODULES` adds the built-in ones; plans may then say `{"op": "double_click", "target": L}`."""

from __future__ import annotations

from webfovea_proving_ground.oracle.grounding import Located
from webfovea_proving_ground.oracle.host import Emit, View
from webfovea_proving_ground.oracle.ops.base import OpContext, PlanOp, PlanStep
from webfovea_proving_ground.oracle.speech import call
from webfovea_proving_ground.plan import Locator


class DoubleClick(PlanStep):
    target: Locator


async def double_click(o: OpContext, step: DoubleClick, view: View, index: int) -> Emit | None:
    got = await o.moves.reach(step.target, view)  # waits or scrolls until it is in view
    if not isinstance(got, Located):
        return got
    return Emit("I'll double-click it to open it.", call("left_double", start_box=o.moves.point(got, view)))


OPS = (PlanOp("double_click", DoubleClick, double_click),)
