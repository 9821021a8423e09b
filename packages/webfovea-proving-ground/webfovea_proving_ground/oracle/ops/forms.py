"""Plan ops that fill a form: select, fill, type — with the fallbacks a model uses when the
prompt does not offer the action (open the list and click the option; click, then type)."""

from __future__ import annotations

from webfovea_proving_ground.oracle.grounding import option_slot
from webfovea_proving_ground.oracle.host import Emit, View
from webfovea_proving_ground.oracle.ops.base import OpContext, PlanOp, PlanStep
from webfovea_proving_ground.oracle.speech import call, describe, thought
from webfovea_proving_ground.plan import Locator


class Select(PlanStep):
    target: Locator  # the <select>
    option: str  # as the task spells it


class Type(PlanStep):
    content: str = ""
    submit: bool = False  # Enter after the text


class Fill(Type):
    target: Locator


async def select(o: OpContext, step: Select, view: View, index: int) -> Emit | None:
    target = await o.misreads.adjacent_target(o.page, step.target, index)
    target = await o.misreads.lookalike_target(o.page, target, index)
    reached = await o.refs.reach_target(target, view)
    if not isinstance(reached, tuple):
        return reached
    got, ref = reached
    option = step.option
    label = describe(got.label, got.tag)
    if view.prompt.offers("select"):
        return Emit(
            thought("select", view.rng, label=label, option=option),
            o.refs.speak("select", **o.refs.target_args(got, ref, view, index), option=option),
        )
    # No select action: do what a model does on a real site: open the list, then click
    # where the option would be drawn. On a native select this changes nothing.
    if o.state.phase == 0:
        o.state.phase = 1
        return Emit(
            thought("select_open", view.rng, label=label, option=option),
            call("click", start_box=o.moves.point(got, view)),
            main=False,
        )
    slot = await option_slot(got, option) or {}
    row = max(0, int(slot.get("index", 0) or 0))
    x = got.centre[0]
    y = min(got.rect[3] + (row + 0.5) * float(o.knobs["option_row_px"]), got.main_viewport[1] - 4)
    return Emit(
        thought("select_pick", view.rng, option=slot.get("label") or option),
        call("click", start_box=o.moves.point(got, view, (x, y))),
    )


def _content(o: OpContext, step: Type) -> tuple[str, bool]:
    """The text to type, with the submitting newline; and whether Enter must follow separately."""
    if step.submit and o.knobs["submit_with_newline"]:
        return step.content + "\n", False
    return step.content, step.submit


async def fill(o: OpContext, step: Fill, view: View, index: int) -> Emit | None:
    target = await o.misreads.adjacent_target(o.page, step.target, index)
    reached = await o.refs.reach_target(target, view)
    if not isinstance(reached, tuple):
        return reached
    got, ref = reached
    content, enter_after = _content(o, step)
    label = describe(got.label, got.tag)
    if view.prompt.offers("fill"):
        if o.state.phase == 1 and enter_after:
            return _enter(view)
        written = o.reply_quirks.in_argument(index, content)
        said = thought("fill", view.rng, label=label, content=step.content)
        action = o.refs.speak("fill", **o.refs.target_args(got, ref, view, index), content=written)
        if enter_after and view.prompt.offers("hotkey"):
            o.state.phase = 1
            return Emit(said, action, main=False, has_argument=True)
        return Emit(said, action, has_argument=True)
    # No fill action: click into the field, then type.
    if o.state.phase == 0:
        o.state.phase = 1
        return Emit(
            thought("focus", view.rng, label=label),
            call("click", start_box=o.moves.point(got, view)),
            main=False,
        )
    return _type(o, step, view, index, next_phase=2)


async def type_(o: OpContext, step: Type, view: View, index: int) -> Emit | None:
    return _type(o, step, view, index, next_phase=1)


def _type(o: OpContext, step: Type, view: View, index: int, *, next_phase: int) -> Emit:
    content, enter_after = _content(o, step)
    if enter_after and o.state.phase == next_phase:
        return _enter(view)
    written = o.reply_quirks.in_argument(index, content)
    said = thought("type", view.rng, content=step.content)
    if enter_after and view.prompt.offers("hotkey"):
        o.state.phase = next_phase
        return Emit(said, call("type", content=written), main=False, has_argument=True)
    return Emit(said, call("type", content=written), has_argument=True)


def _enter(view: View) -> Emit:
    return Emit(thought("enter", view.rng), call("hotkey", key="enter"))


OPS = (
    PlanOp("select", Select, select),
    PlanOp("fill", Fill, fill),
    PlanOp("type", Type, type_),
)
