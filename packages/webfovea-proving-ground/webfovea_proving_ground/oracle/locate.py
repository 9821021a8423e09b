"""The oracle with `locate` and `look` (structured mode; also as a separate vision model).

A target the snapshot cannot name (a canvas, a chart's bar, a widget in a closed shadow root)
is brought into view the way the vision oracle does it, then named with
`locate(description=…)`; the point the harness returns in its feedback becomes the next
action's `start_box`. The oracle never writes a point of its own in structured mode.

Answering a locate call, the oracle reads the gridded image it was given: where its target is
drawn comes from the same read-only geometry the vision oracle uses to "see" an element on a
screenshot (its box in the viewport, scaled to the image it was sent), and the 0-1000 value
comes from the grid lines it finds drawn on that image — a cell index and the position inside
the cell, as a model reads the labels. It never reads the viewport mapping of the harness, so
a grid drawn wrongly, or an image of another size, misleads it exactly as it would a model.

Answering a look call (only when it serves as the separate vision model), it reports the plan's
answer value when its element is in view on the screenshot, as the vision oracle reads values.
"""

from __future__ import annotations

import re

from webfovea.models.base import ModelInput
from webfovea.observation.grid import COLUMNS, ROWS, SPACE, find_lines
from webfovea_proving_ground.oracle.grounding import Located, in_view, locate, read_value, true_viewport
from webfovea_proving_ground.oracle.host import Emit, Looking, View
from webfovea_proving_ground.oracle.moves import Moves
from webfovea_proving_ground.oracle.speech import call, describe
from webfovea_proving_ground.plan import Locator

_LOCATED = re.compile(r"locate: '.*' is at \((\d+),\s*(\d+)\)", re.S)
# A target reached: (located, its ref or None); else the reply that gets there, or None (give up).
Reached = tuple[Located, str | None] | Emit | None
MAX_LOCATES = 2  # per plan step: one, and one more if the first answer could not be used


def located_point(feedback: str | None) -> tuple[int, int] | None:
    """The start_box point the harness's locate feedback gave, if the last action was a locate."""
    m = _LOCATED.search(feedback or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def grid_value(px: float, lines: list[int], extent: int, cells: int) -> float:
    """An image position -> 0-1000 along one axis by the grid lines drawn there: the cell it is
    in (its lines' labels) and how far across that cell it lies."""
    edges = [0, *lines, extent]
    for k in range(cells):
        lo, hi = edges[k], edges[k + 1]
        if px < hi or k == cells - 1:
            frac = (px - lo) / (hi - lo) if hi > lo else 0.0
            return (k + min(max(frac, 0.0), 1.0)) * SPACE / cells
    return float(SPACE)


class Locating:
    """Locate/look for the model: asking the harness to locate, and answering its questions."""

    def __init__(self, host: Looking, moves: Moves) -> None:
        self.host = host
        self.moves = moves

    async def via_locate(self, target: Locator, view: View, label: str | None) -> Reached:
        """In view first (scrolling as the vision oracle does), then locate; (loc, None) once the
        harness returned a point (kept for `take_located`); None when it gave none twice."""
        state = self.host.state
        got = await self.moves.reach(target, view, label=label)
        if not isinstance(got, Located):
            return got
        point = located_point(view.feedback) if state.locates else None
        if point is not None:
            state.located = point
            return got, None
        if state.locates >= MAX_LOCATES:
            return None
        state.locates += 1
        state.locating = target
        what = label or describe(got.label, got.tag)
        return Emit(
            f"The snapshot has no reference for {what}; I'll locate it on the screenshot.",
            call("locate", description=what),
            main=False,
        )

    def take_located(self) -> tuple[int, int] | None:
        state = self.host.state
        point, state.located = state.located, None
        return point

    # -- answering the harness's look/locate calls --------------------------------------

    def targets_for(self, description: str) -> list[Locator]:
        """The target a locate call asks about: the one this oracle asked for (same instance),
        else plan targets, those whose words the description uses first."""
        if self.host.state.locating is not None:
            return [self.host.state.locating]
        targets = [s["target"] for s in self.host.plan if isinstance(s.get("target"), dict)]
        words = set(re.findall(r"\w+", description.lower()))
        return sorted(targets, key=lambda t: -len(words & set(re.findall(r"\w+", str(t).lower()))))

    async def locate_answer(self, inp: ModelInput) -> str:
        page = self.host.page
        image = inp.images[-1] if inp.images else None
        if image is None:
            return "Point: none"
        for target in self.targets_for(inp.task):
            loc = await locate(page, target)
            if loc is None or not in_view(loc):
                continue
            # Where it is drawn on the image: its viewport box scaled to the image it was sent.
            vw, vh = await true_viewport(page)
            w, h = image.size
            box = [loc.rect[0] * w / vw, loc.rect[1] * h / vh, loc.rect[2] * w / vw, loc.rect[3] * h / vh]
            cx, cy = loc.centre[0] * w / vw, loc.centre[1] * h / vh
            lines = find_lines(image)
            if lines is None:  # no grid to read: estimate from the image's edges
                u, v = cx / w * SPACE, cy / h * SPACE
                b = [box[0] / w * SPACE, box[1] / h * SPACE, box[2] / w * SPACE, box[3] / h * SPACE]
            else:
                cols, rows = lines
                u, v = grid_value(cx, cols, w, COLUMNS), grid_value(cy, rows, h, ROWS)
                b = [
                    grid_value(box[0], cols, w, COLUMNS),
                    grid_value(box[1], rows, h, ROWS),
                    grid_value(box[2], cols, w, COLUMNS),
                    grid_value(box[3], rows, h, ROWS),
                ]
            bx = ", ".join(str(round(c)) for c in b)
            return f"Box: ({bx})\nPoint: ({round(u)}, {round(v)})"
        return "Point: none"

    async def look_answer(self, inp: ModelInput) -> str:
        for step in self.host.plan:
            source = step.get("source") if step.get("op") == "answer" else None
            if not isinstance(source, dict):
                continue
            loc = await locate(self.host.page, source["target"])
            if loc is not None and in_view(loc, whole=True):
                value = await read_value(self.host.page, source)
                if value:
                    return f"The screenshot shows {value} there."
        return "I cannot see that in this screenshot."
