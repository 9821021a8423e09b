"""locate(description): the winner's grid localisation (seed 002, docs/glossary.md), as one action spec.

The current viewport screenshot, with a 16x12 grid labelled in 0-1000 coordinates drawn over
it, goes to the vision model (or the task's own model) with the description; the model names
the target's centre in 0-1000 on both axes. The harness maps that to the CSS viewport —
measured before and after the call; if the viewport changed meanwhile, the screenshot is
taken again and the model asked once more, so image and viewport agree — clips it to the
viewport, and tells the model the point in the coordinates `start_box` takes. It never
clicks: acting on the point is the model's next decision (click or hover with start_box).
A reply without a usable point is one sentence of feedback; nothing else happens.
"""

from __future__ import annotations

import re

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component
from webfovea.execution.context import View
from webfovea.models.conventions_row import NORM_SPACES, encode_point
from webfovea.types import Action, ParamSpec

SPACE = 1000
ATTEMPTS = 2  # the first answer, and one more after the viewport changed under it

LOCATE_SYSTEM = (
    "You locate one element on a web page screenshot. A grid of 16 columns and 12 rows is drawn "
    "over it; each grid line is labelled with its position in a 0-1000 coordinate space "
    "(x along the top and bottom edges, y along the left and right edges; 0,0 is the top-left "
    "corner, 1000,1000 the bottom-right). First find the grid cell that holds the element, then "
    "describe the element's approximate boundary, then give the centre of that boundary.\n"
    "Reply in exactly this form:\n"
    "Box: (x1, y1, x2, y2)\nPoint: (x, y)\n"
    "with integers from 0 to 1000. If the element is not visible in this screenshot, reply "
    "`Point: none`. Do not click and do not write an Action."
)

_NONE = re.compile(r"point\s*[:=]\s*(none|null|not\s+(?:visible|found))", re.I)
_POINT = re.compile(r"point\s*[:=]\s*[\[(<]?\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)", re.I)
_PAIR = re.compile(r"\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)")


class LocateAnswer:
    """What the model's reply says: a point in 0-1000, `missing` (it said it sees none) or
    `problem` (a one-sentence reason it could not be used)."""

    def __init__(
        self, point: tuple[float, float] | None = None, missing: bool = False, problem: str | None = None
    ) -> None:
        self.point, self.missing, self.problem = point, missing, problem


def parse_answer(text: str) -> LocateAnswer:
    """The `Point: (x, y)` of a locate reply (else the last `(x, y)` pair it wrote)."""
    body = text or ""
    if _NONE.search(body):
        return LocateAnswer(missing=True)
    m = _POINT.search(body)
    if m is None:
        pairs = _PAIR.findall(body)
        if not pairs:
            return LocateAnswer(problem="its answer held no point (expected `Point: (x, y)` in 0-1000)")
        m_x, m_y = pairs[-1]
    else:
        m_x, m_y = m.group(1), m.group(2)
    x, y = float(m_x), float(m_y)
    if not (0 <= x <= SPACE and 0 <= y <= SPACE):
        return LocateAnswer(problem=f"its point ({x:g}, {y:g}) is outside the 0-1000 grid")
    return LocateAnswer(point=(x, y))


def to_viewport(point: tuple[float, float], width: float, height: float) -> tuple[float, float]:
    """0-1000 -> CSS pixels of a width x height viewport, clipped to the viewport (seed 002:
    x = u/1000 * W, y = v/1000 * H)."""
    x = min(max(point[0] / SPACE * width, 0.0), max(width - 1.0, 0.0))
    y = min(max(point[1] / SPACE * height, 0.0), max(height - 1.0, 0.0))
    return x, y


def model_point(view: View, x: float, y: float) -> tuple[int, int]:
    """A CSS point -> what `start_box` takes for it in this harness's coordinate space (the
    inverse of the view's own mapping), so clicking the returned point lands on it."""
    space = getattr(view, "coordinate_convention", "pixels")
    if space in NORM_SPACES:
        return encode_point(space, x, y, view.css_width, view.css_height)
    ox, oy = view.to_css(0.0, 0.0)
    sx, sy = view.to_css(1.0, 1.0)
    mx, my = round((x - ox) / ((sx - ox) or 1.0)), round((y - oy) / ((sy - oy) or 1.0))
    w, h = getattr(view, "size", (mx + 1, my + 1))
    return min(max(mx, 0), int(w) - 1), min(max(my, 0), int(h) - 1)


def _prompt(description: str) -> str:
    return f"Locate this element: {description}"


async def exec_locate(ctx: ExecContext, action: Action) -> Outcome:
    description = str(action.args.get("description", "")).strip()
    if not description:
        return Outcome(
            ok=False, check_change=False, note="locate needs a description of the element to find."
        )
    if ctx.vision is None:
        return Outcome(
            ok=False,
            check_change=False,
            note="locate is not available here: no model is configured to read the screenshot.",
        )
    answer = LocateAnswer(problem="the model gave no answer")
    size: tuple[float, float] | None = None
    for _ in range(ATTEMPTS):
        before = await ctx.vision.viewport()
        image, view = await ctx.vision.view(grid=True)
        text, call = await ctx.vision.ask("locate", LOCATE_SYSTEM, _prompt(description), image)
        ctx.response.add_call(call)
        after = await ctx.vision.viewport()
        if call.get("error"):
            answer = LocateAnswer(problem=f"the call failed ({call['error']})")
            break
        answer = parse_answer(text)
        size = (view.css_width, view.css_height)
        if before == after == size:
            break
        size = None  # the viewport changed under the image: take it again and ask once more
    outcome = Outcome(ok=False, check_change=False)
    if answer.missing:
        outcome.note = (
            f"locate: '{description}' was not found in the current screenshot; scroll or look again."
        )
    elif answer.problem or answer.point is None:
        outcome.note = f"locate: no point for '{description}': {answer.problem}; nothing was clicked."
    elif size is None:
        outcome.note = (
            "locate: the viewport kept changing while the screenshot was read; nothing was clicked."
        )
    else:
        css = to_viewport(answer.point, *size)
        mx, my = model_point(ctx.view, *css)
        outcome.ok = True
        outcome.note = (
            f"locate: '{description}' is at ({mx},{my}); use click(start_box='({mx},{my})') or "
            f"hover(start_box='({mx},{my})') to act on it (nothing was clicked)."
        )
    return outcome


SPECS = [
    ActionSpec(
        name="locate",
        params=(ParamSpec("description", "text"),),
        signature="locate(description='the element to find')",
        purpose="Find a visible element the snapshot cannot name (canvas, chart point, icon): returns a "
        "start_box point to click or hover; it does not click.",
        execute=exec_locate,
        needs_snapshot=True,
        also_with=Component.evaluate,  # the winner profile offers it in every mode
        watch=False,
        budget=20,
        aliases=("browser_locate", "grid_locate"),
        rule="For a target with no [ref=…] (a canvas, a chart point, an unlabelled icon), call locate and "
        "act on the start_box it returns; never guess a point.",
        feedback="The point to use as start_box (or why there is none); nothing is clicked.",
    ),
]
