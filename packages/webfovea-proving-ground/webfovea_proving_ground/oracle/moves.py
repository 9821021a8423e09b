"""How the oracle gets a target in front of it, and the point it names there.

A target that is not there yet is waited for; one outside the viewport (or a scroll box) is
scrolled towards, as a model scrolls when it cannot see what it needs; a step whose
scrolling moves nothing, or that never appears, is given up. A point is the target's CSS
point mapped into the image the oracle *sees* (the provider's downscaled size), with a
little jitter, in the prompt's coordinate convention.
"""

from __future__ import annotations

from webfovea.models.conventions import encode_point
from webfovea_proving_ground.oracle.grounding import Located, in_view, locate, page_scroll_point, scroll_plan
from webfovea_proving_ground.oracle.host import Emit, Looking, View
from webfovea_proving_ground.oracle.speech import call, describe, thought
from webfovea_proving_ground.plan import Locator


class Moves:
    def __init__(self, host: Looking, jitter_px: float) -> None:
        self.host = host
        self.jitter_px = jitter_px

    async def reach(
        self, target: Locator, view: View, *, whole: bool = False, label: str | None = None
    ) -> Located | Emit | None:
        """The located target once it is in view; otherwise the wait or scroll that gets it
        there; None when the step should be given up (never appeared, scrolling is stuck)."""
        state = self.host.state
        loc = await locate(self.host.page, target)
        if loc is None:
            if state.waits >= int(self.host.knobs["max_waits_per_step"]) or not view.prompt.offers("wait"):
                return None
            state.waits += 1
            return Emit(thought("wait", view.rng), "wait()", main=False)
        if in_view(loc, whole=whole):
            return loc
        return await self.scroll_towards(loc, view, whole=whole, label=label)

    async def scroll_towards(
        self, loc: Located, view: View, *, whole: bool = False, label: str | None = None
    ) -> Emit | None:
        move = scroll_plan(loc, whole=whole)
        if move is None or not view.prompt.offers("scroll"):
            return None
        state = self.host.state
        if state.last_scroll_rect == loc.rect:  # the last scroll moved nothing
            state.stuck += 1
        state.last_scroll_rect = loc.rect
        state.scrolls += 1
        if state.stuck >= 3 or state.scrolls > int(self.host.knobs["max_scrolls_per_step"]):
            return None
        point = move.point
        if move.main_page:
            point = await page_scroll_point(self.host.page, point)
        said = thought(
            "scroll", view.rng, label=label or describe(loc.label, loc.tag), direction=move.direction
        )
        if view.prompt.takes("scroll", "start_box"):
            action = call("scroll", start_box=self.point(loc, view, point), direction=move.direction)
        else:
            action = call("scroll", direction=move.direction)
        return Emit(said, action, main=False)

    def to_model(
        self, css: tuple[float, float], viewport: tuple[float, float], view: View
    ) -> tuple[int, int]:
        """A CSS point of the viewport -> the point in the image the oracle sees (with jitter)."""
        vw, vh = viewport
        j = self.jitter_px
        x = css[0] * view.seen_w / vw + view.rng.uniform(-j, j)
        y = css[1] * view.seen_h / vh + view.rng.uniform(-j, j)
        x = min(max(x, 0.0), view.seen_w - 1.0)
        y = min(max(y, 0.0), view.seen_h - 1.0)
        return encode_point(view.prompt.convention, x, y, view.seen_w, view.seen_h)

    def point(self, loc: Located, view: View, css: tuple[float, float] | None = None) -> tuple[int, int]:
        """The point the oracle names for a located target (its centre unless `css` is given)."""
        return self.to_model(css or loc.centre, loc.main_viewport, view)
