"""Plan ops that point somewhere or move the page: click, hover, click_many, drag, scroll_to, back."""

from __future__ import annotations

from webfovea_proving_ground.oracle.grounding import Located
from webfovea_proving_ground.oracle.host import Emit, View
from webfovea_proving_ground.oracle.ops.base import OpContext, PlanOp, PlanStep
from webfovea_proving_ground.oracle.speech import call, describe, thought
from webfovea_proving_ground.plan import Locator


class Click(PlanStep):
    target: Locator


class Hover(PlanStep):
    target: Locator


class ClickMany(PlanStep):
    targets: list[Locator]


class Drag(PlanStep):
    source: Locator
    target: Locator
    # The same move without dragging (a card's "Move…" menu), one click per reply: what the
    # oracle does when the prompt offers no drag or names targets by ref only.
    menu: list[Locator] = []


class ScrollTo(PlanStep):
    target: Locator


class Back(PlanStep):
    pass


async def click(o: OpContext, step: Click, view: View, index: int) -> Emit | None:
    target = await o.misreads.lookalike_target(o.page, step.target, index)
    got = await o.refs.reach_target(target, view)
    if not isinstance(got, tuple):
        return got
    loc, ref = got
    return Emit(
        thought("click", view.rng, label=describe(loc.label, loc.tag)),
        o.refs.speak("click", **o.refs.target_args(loc, ref, view, index)),
    )


async def hover(o: OpContext, step: Hover, view: View, index: int) -> Emit | None:
    got = await o.refs.reach_target(step.target, view)
    if not isinstance(got, tuple):
        return got
    loc, ref = got
    name = "hover" if view.prompt.offers("hover") else "click"
    return Emit(
        thought(name, view.rng, label=describe(loc.label, loc.tag)),
        o.refs.speak(name, **o.refs.target_args(loc, ref, view, index)),
    )


async def click_many(o: OpContext, step: ClickMany, view: View, index: int) -> Emit | None:
    located: list[Located] = []
    for target in step.targets:
        got = await o.moves.reach(target, view)
        if not isinstance(got, Located):
            return got
        located.append(got)
    if not located:
        return None
    if view.prompt.offers("click_many"):
        return Emit(
            thought("click_many", view.rng),
            call("click_many", points=[o.moves.point(loc, view) for loc in located]),
        )
    # No click_many action: click each in turn; the last click is the step's main action.
    loc = located[min(o.state.phase, len(located) - 1)]
    last = o.state.phase >= len(located) - 1
    o.state.phase += 1
    return Emit(
        thought("click", view.rng, label=describe(loc.label, loc.tag)),
        call("click", start_box=o.moves.point(loc, view)),
        main=last,
    )


async def drag(o: OpContext, step: Drag, view: View, index: int) -> Emit | None:
    if step.menu and (o.refs.only(view) or not view.prompt.offers("drag")):
        got = await o.refs.reach_target(step.menu[min(o.state.phase, len(step.menu) - 1)], view)
        if not isinstance(got, tuple):
            return got
        loc, ref = got
        last = o.state.phase >= len(step.menu) - 1
        o.state.phase += 1
        return Emit(
            thought("click", view.rng, label=describe(loc.label, loc.tag)),
            o.refs.speak("click", **o.refs.target_args(loc, ref, view, index)),
            main=last,
        )
    start = await o.moves.reach(step.source, view)
    if not isinstance(start, Located):
        return start
    end = await o.moves.reach(step.target, view)
    if not isinstance(end, Located):
        return end
    return Emit(
        thought("drag", view.rng, label=describe(start.label, start.tag), onto=describe(end.label, end.tag)),
        call("drag", start_box=o.moves.point(start, view), end_box=o.moves.point(end, view)),
    )


async def scroll_to(o: OpContext, step: ScrollTo, view: View, index: int) -> Emit | None:
    got = await o.moves.reach(step.target, view)
    return None if isinstance(got, Located) else got


async def back(o: OpContext, step: Back, view: View, index: int) -> Emit | None:
    if not view.prompt.offers("back"):
        return None
    return Emit("I have what I needed here; I'll go back to the previous page.", "back()")


OPS = (
    PlanOp("click", Click, click),
    PlanOp("hover", Hover, hover),
    PlanOp("click_many", ClickMany, click_many),
    PlanOp("drag", Drag, drag),
    PlanOp("scroll_to", ScrollTo, scroll_to),
    PlanOp("back", Back, back),
)
