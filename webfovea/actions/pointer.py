"""Mouse actions: click, left_double, right_single, drag, hover, scroll, click_many."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.frames import frame_at_point, js
from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import Component
from webfovea.feedback import notes
from webfovea.feedback.element import hold_target, target_swapped
from webfovea.guardrails.captcha import captcha_on_page
from webfovea.types import Action, ParamSpec

BOX = "'<|box_start|>(x,y)<|box_end|>'"
SCROLL_PX = 600  # a bit over half a 1080-px viewport: consecutive views overlap
# With container_scroll, a scroll moves this share of the visible size of the container it
# moves: about half a page (consecutive views overlap), most of a small box (a 120-px text box
# read at half its height takes twice the steps for no gain in context).
SCROLL_SHARE = 0.55
SMALL_BOX_SHARE = 0.8
SMALL_BOX = 0.5  # a container smaller than this share of the viewport is a small box
_SCROLLER = js("scroller")
# With person_pointer, a drag is ~30 moves over ~0.5 s, then held for one widget animation.
DRAG_MOVES = 30
DRAG_S = 0.5
DRAG_HOLD_S = 0.2


async def _click(
    ctx: ExecContext, action: Action, *, button: Literal["left", "middle", "right"] = "left", count: int = 1
) -> Outcome:
    x, y = ctx.css(action.args.get("start_box"))
    mouse = ctx.page.mouse
    # The element the model aimed at is held before the pointer arrives; a page that puts
    # another one there on arrival (pointermove, mouseover) does not get the press.
    held = await hold_target(ctx.page, x, y)
    await mouse.move(x, y)
    if ctx.on(Component.person_pointer):
        # As a person: arrive, let hover effects happen (menus, icons revealed on hover), then press.
        await ctx.pause_for_hover()
    now = await target_swapped(ctx.page, held, x, y)
    if now is not None:
        note = notes.target_swapped(action.name, now)
        return Outcome(ok=False, note=note, point=(x, y), refused=True, check_change=False)
    for i in range(1, count + 1):
        await mouse.down(button=button, click_count=i)
        await mouse.up(button=button, click_count=i)
    return Outcome(point=(x, y))


async def exec_click(ctx: ExecContext, action: Action) -> Outcome:
    return await _click(ctx, action)


async def exec_double(ctx: ExecContext, action: Action) -> Outcome:
    return await _click(ctx, action, count=2)


async def exec_right(ctx: ExecContext, action: Action) -> Outcome:
    return await _click(ctx, action, button="right")


async def exec_drag(ctx: ExecContext, action: Action) -> Outcome:
    x0, y0 = ctx.css(action.args.get("start_box"))
    x1, y1 = ctx.css(action.args["end_box"], "end_box")
    mouse = ctx.page.mouse
    await mouse.move(x0, y0)
    await mouse.down()
    if not ctx.on(Component.person_pointer):
        await mouse.move(x1, y1, steps=12)  # one burst, as the reference agent
        await mouse.up()
        return Outcome(point=(x0, y0), points=[(x0, y0), (x1, y1)])
    # Paced like a person's: pages that react per animation frame or per animation (a sortable
    # list swaps one slot per 150-ms animation) follow a drag only as fast as they can redraw.
    for i in range(1, DRAG_MOVES + 1):
        await mouse.move(x0 + (x1 - x0) * i / DRAG_MOVES, y0 + (y1 - y0) * i / DRAG_MOVES)
        await asyncio.sleep(DRAG_S / DRAG_MOVES)
    await asyncio.sleep(DRAG_HOLD_S)  # the last swap's animation, before the drop
    await mouse.up()
    return Outcome(point=(x0, y0), points=[(x0, y0), (x1, y1)])


async def exec_hover(ctx: ExecContext, action: Action) -> Outcome:
    x, y = ctx.css(action.args.get("start_box"))
    # Arrive from a neighbouring pixel so mouseenter/mouseover fire even if the pointer was here.
    await ctx.page.mouse.move(x - 3, y - 3)
    await ctx.page.mouse.move(x, y)
    return Outcome(point=(x, y))


async def exec_scroll(ctx: ExecContext, action: Action) -> Outcome:
    box = action.args.get("start_box")
    if box is not None or ctx.target is not None:
        x, y = ctx.css(box)
    else:
        x, y = ctx.view.css_width / 2, ctx.view.css_height / 2
    direction = action.args.get("direction", "down")
    step, where = float(SCROLL_PX), None
    if ctx.on(Component.container_scroll):
        where = await _scroller(ctx, x, y, direction)
        if where is not None:
            step = _step(where, ctx.view.css_height if direction in ("up", "down") else ctx.view.css_width)
    dx, dy = {"up": (0, -step), "down": (0, step), "left": (-step, 0), "right": (step, 0)}[direction]
    await ctx.page.mouse.move(x, y)
    await ctx.page.mouse.wheel(dx, dy)
    # mouse.wheel returns before the scroll is applied; without this the "after"
    # fingerprint can still show the old offset and a moving page looks stuck. The frames are
    # the harness's own (a page overriding requestAnimationFrame cannot hold it) and bounded.
    await worlds(ctx.page).animation_frames(2, timeout=1.0)
    note = ""
    if where is not None:
        after = await _scroller(ctx, x, y, direction, container=str(where["container"]))
        note = _standing(after, direction) if after is not None else ""
    return Outcome(point=(x, y), note=note)


def _step(where: dict[str, Any], viewport: float) -> float:
    size = float(where["size"])
    small = not where.get("page") and size < SMALL_BOX * viewport
    return max(40.0, round(size * (SMALL_BOX_SHARE if small else SCROLL_SHARE)))


def _standing(where: dict[str, Any], direction: str) -> str:
    """Where the scrolled container stands now, so the model sees its progress and what is left
    (ten scrolls that each 'moved a scrollable area' tell it nothing about the end)."""
    size, full, pos = float(where["size"]), float(where["full"]), float(where["pos"])
    if full <= size + 1:
        return ""
    name = "The page" if where.get("page") else f"The scrollable area <{where['container']}>"
    first, last = 100 * pos / full, 100 * min(full, pos + size) / full
    forward = direction in ("down", "right")
    left = 100 - last if forward else first
    end = ("its end" if forward else "its start") + (" is reached" if left < 0.5 else f": {left:.0f}% more")
    return f"{name} now shows {first:.0f}-{last:.0f}% of its content ({end})."


async def _scroller(
    ctx: ExecContext, x: float, y: float, direction: str, container: str | None = None
) -> dict[str, Any] | None:
    """The container the wheel will move at the point (or where the named one stands), read in
    the harness's isolated world: a page lying about its geometry cannot change the step."""
    hit = await frame_at_point(ctx.page, x, y)
    if hit.ref is None:
        return None
    arg: dict[str, Any] = {
        "x": hit.local_x,
        "y": hit.local_y,
        "axis": "y" if direction in ("up", "down") else "x",
        "sign": 1 if direction in ("down", "right") else -1,
    }
    if container is not None:
        arg["container"] = container
    try:
        got = await worlds(ctx.page).call(hit.ref, _SCROLLER, arg)
    except PageUnresponsive:
        raise
    except Exception:
        return None
    return got if isinstance(got, dict) else None


async def exec_click_many(ctx: ExecContext, action: Action) -> Outcome:
    points = [ctx.css(p, f"point {i + 1}") for i, p in enumerate(action.args.get("points") or [])]
    if not points:
        return Outcome(ok=False, check_change=False, note="click_many needs at least one point.")
    if not await captcha_on_page(ctx.page):
        return Outcome(
            ok=False,
            check_change=False,
            refused=True,
            note="click_many is only for image-grid CAPTCHAs, and no CAPTCHA is on this page; click one target at a time.",
        )
    for x, y in points:
        await ctx.page.mouse.click(x, y)
        await asyncio.sleep(0.08)  # grid widgets debounce rapid clicks
    return Outcome(point=points[0], points=points, note=f"Clicked {len(points)} points.")


SPECS = [
    ActionSpec(
        name="click",
        targets=True,
        params=(ParamSpec("start_box", "point"),),
        signature=f"click(start_box={BOX})",
        purpose="Left-click the point.",
        execute=exec_click,
        pointer=True,
        dom_event="click",
        text_hash="on_chart",
        aliases=("left_click", "left_single", "tap"),
        feedback="If nothing on the page changed: a note naming the element under the point and whether it is clickable.",
        manual="Click {element}.{said}",
        uitars="click(point={start_box})",
    ),
    ActionSpec(
        name="left_double",
        targets=True,
        params=(ParamSpec("start_box", "point"),),
        signature=f"left_double(start_box={BOX})",
        purpose="Double-click the point.",
        execute=exec_double,
        pointer=True,
        dom_event="dblclick",
        text_hash="on_chart",
        aliases=("double_click", "left_double_click", "doubleclick", "dblclick"),
        feedback="If nothing changed: a note naming the element under the point.",
        uitars="left_double(point={start_box})",
    ),
    ActionSpec(
        name="right_single",
        targets=True,
        params=(ParamSpec("start_box", "point"),),
        signature=f"right_single(start_box={BOX})",
        purpose="Right-click the point.",
        execute=exec_right,
        pointer=True,
        dom_event="contextmenu",
        text_hash="on_chart",
        aliases=("right_click", "right_single_click"),
        feedback="If nothing changed: a note naming the element under the point.",
        uitars="right_single(point={start_box})",
    ),
    ActionSpec(
        name="drag",
        params=(ParamSpec("start_box", "point"), ParamSpec("end_box", "point")),
        signature=f"drag(start_box={BOX}, end_box={BOX})",
        purpose="Press at start_box, move to end_box, release (sliders, maps).",
        execute=exec_drag,
        pointer=True,
        feedback="If nothing changed: a note naming the element under the start point.",
        uitars="drag(start_point={start_box}, end_point={end_box})",
    ),
    ActionSpec(
        name="scroll",
        targets=True,
        params=(ParamSpec("start_box", "point", optional=True), ParamSpec("direction", "direction")),
        signature=f"scroll(start_box={BOX}, direction='down or up or right or left')",
        purpose="Scroll the element under the point (the page if no point) by about half of its visible height (most of a small box's).",
        execute=exec_scroll,
        pointer=True,
        counts_as_scroll=True,
        aliases=("scroll_down", "scroll_up"),
        feedback="If nothing moved: a note naming the element under the point (the end of the page or a non-scrollable area).",
        retry_when="unchanged",  # a scroll that moved the page is reading on
        uitars="scroll(point={start_box}, direction={direction})",
    ),
    ActionSpec(
        name="hover",
        targets=True,
        params=(ParamSpec("start_box", "point"),),
        signature=f"hover(start_box={BOX})",
        purpose="Move the mouse over the point without clicking (reveals tooltips and chart values).",
        execute=exec_hover,
        component=Component.hover,
        pointer=True,
        text_hash="always",
        rule="When a chart's values are not printed, hover each bar or point you need and read the tooltip.",
        feedback="The page-text hash is compared, so a tooltip that appears counts as a change; otherwise a note naming the element under the point.",
        manual="Rest the pointer on {element} to show its details.{said}",
    ),
    ActionSpec(
        name="click_many",
        params=(ParamSpec("points", "points"),),
        signature="click_many(points='<|box_start|>(x1,y1)<|box_end|> <|box_start|>(x2,y2)<|box_end|> ...')",
        purpose="Click several points in one step. Only for an image-grid CAPTCHA.",
        execute=exec_click_many,
        component=Component.click_many,
        budget=6,
        pointer=False,
        rule="Use click_many only to select the tiles of an image-grid CAPTCHA, then click its Verify button.",
        feedback="How many points were clicked; a refusal when no CAPTCHA is on the page.",
        manual="Select every matching tile, then continue.",
    ),
]
