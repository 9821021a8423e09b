"""Did the page react? Fingerprints before and after one action, then the pixels.

The frame under the action's point is resolved once, when the watch starts; the main frame
and that child frame are fingerprinted (one evaluation each) before the action, which also
opens the action window of the page-side recorder, and again after the settle wait, with
the regions whose elements changed. `verdict()` then decides: a change of the DOM state not
explained by elements that were changing on their own is the action's effect; when there is
none, the capture the model will see next is compared with the one it saw, and only when
the pixels near the point did not change either is it "no change".
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from playwright.async_api import Frame, Page

from webfovea.browser.frames import FrameHit, frame_at_point
from webfovea.feedback.fingerprint import Change, diff, fingerprint
from webfovea.feedback.pixels import Box, PixelChange, compare

Point = tuple[float, float]


@dataclass
class Verdict:
    changed: bool | None  # None: the page could not be read
    changes: list[Change] = field(default_factory=list)  # everything seen, ambient included
    pixels: PixelChange | None = None

    @property
    def effects(self) -> list[Change]:
        return [c for c in self.changes if not c.ambient]

    @property
    def ambient(self) -> list[Change]:
        return [c for c in self.changes if c.ambient]


@dataclass
class ChangeWatch:
    before: dict[str, Any] | None
    hit: FrameHit | None = None
    after: dict[str, Any] | None = None
    changes: list[Change] = field(default_factory=list)
    point: Point | None = None
    main: Frame | None = None

    @classmethod
    async def start(cls, page: Page, point: Point | None, since_obs_s: float | None = None) -> ChangeWatch:
        """Resolve the frame under `point` (None: no point) and fingerprint before the action."""
        hit = await _safe(frame_at_point(page, *point)) if point is not None else None
        watch = cls(None, hit, point=point, main=page.main_frame)
        arm = {"arm": True, "since": -1 if since_obs_s is None else since_obs_s * 1000}
        jobs = [fingerprint(page.main_frame, point, **arm)]
        if hit is not None and hit.is_child:
            jobs.append(fingerprint(hit.frame, (hit.local_x, hit.local_y), **arm))
        fps = await asyncio.gather(*jobs)
        watch.before = {
            "main": fps[0],
            "child": fps[1] if len(fps) > 1 else None,
            "child_url": hit.url if hit is not None and hit.is_child else None,
        }
        return watch

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The frames this watch fingerprints (already armed by it)."""
        main = (self.main,) if self.main is not None else ()
        return main + ((self.hit.frame,) if self.hit is not None and self.hit.is_child else ())

    async def finish(
        self, page: Page, point: Point | None, *, reuse: bool = True, disarm: bool = True
    ) -> list[Change]:
        """Fingerprint again, with the regions that changed, and list the changes. With `reuse`,
        what only a DOM mutation can change is not recomputed in a frame that saw none (a
        CSS-only change, such as a :hover tooltip, is left to the pixel check). With `disarm`,
        closes the action window of the frames it fingerprints."""
        jobs = [fingerprint(page.main_frame, point, regions=True, reuse=reuse, disarm=disarm)]
        child = self.hit is not None and self.hit.is_child
        if child:
            assert self.hit is not None
            jobs.append(
                fingerprint(
                    self.hit.frame,
                    (self.hit.local_x, self.hit.local_y),
                    regions=True,
                    reuse=reuse,
                    disarm=disarm,
                )
            )
        fps = await asyncio.gather(*jobs)
        child_url = None
        if child and self.hit is not None:
            child_url = self.hit.url if "error" in fps[1] else fps[1].get("url", self.hit.url)
        self.after = {"main": fps[0], "child": fps[1] if child else None, "child_url": child_url}
        if self.before is not None and child and self.before.get("child"):
            self.before["child_url"] = self.before["child"].get("url", self.before["child_url"])
        self.changes = diff(self.before, self.after) if self.before is not None else []
        return self.changes

    def ambient_rects(self) -> list[Box]:
        """Viewport rectangles (CSS px) of what was changing on its own: ambient regions and
        elements under endless animations, in the main frame and the child frame."""
        out: list[Box] = []
        for key, dx, dy in (("main", 0.0, 0.0), ("child", *self._child_offset())):
            fp = (self.after or {}).get(key) or {}
            rects = [r["rect"] for r in fp.get("regions") or [] if r.get("ambient")] + list(
                fp.get("anim_rects") or []
            )
            out += [(x + dx, y + dy, x + dx + w, y + dy + h) for x, y, w, h in rects]
        return out

    def _child_offset(self) -> tuple[float, float]:
        if self.hit is None or not self.hit.is_child or self.point is None:
            return 0.0, 0.0
        return self.point[0] - self.hit.local_x, self.point[1] - self.hit.local_y

    def verdict(
        self,
        point: Point | None,
        shown: Image.Image | None,
        now: Image.Image | None,
        css_size: tuple[float, float],
        same: bool = False,
        method: str = "grid",
    ) -> Verdict:
        """Whether the action changed the page, with the DOM changes and, if needed, the pixels
        (`same`: the two captures are known to be byte-identical; `method`: the config's
        `change_detection`, "grid" or "perceptual")."""
        if self.before is None or self.after is None:
            return Verdict(None)
        v = Verdict(False, list(self.changes))
        if v.effects:
            v.changed = True
            return v
        if shown is None or now is None:
            return v
        measure = compare
        if method == "perceptual":
            # Imported here: it needs numpy (~0.2 s of CPU to import), and every worker and CLI
            # process of a run with the default grid comparison would pay for it.
            from webfovea.feedback.perceptual import compare_perceptual

            measure = compare_perceptual
        v.pixels = measure(shown, now, css_size, same=same)
        unexplained = v.pixels.outside(self.ambient_rects())
        if not unexplained:
            return v
        if point is None:
            v.changes.append(Change("look", data={"box": v.pixels.bounds(unexplained)}))
            v.changed = True
            return v
        near = [b for b in unexplained if b in v.pixels.near(point)]
        if near:
            unread = any(c.kind == "unknown" for c in v.changes)  # the DOM was not read: say less
            v.changes.append(
                Change("look", data={"box": v.pixels.bounds(near), "near": True, "unread": unread})
            )
            v.changed = True
        else:
            v.changes.append(Change("look", ambient=True, data={"box": v.pixels.bounds(unexplained)}))
        return v


async def _safe(coro: Any) -> Any:
    """DOM probes must never break a step: a page mid-navigation just yields no probe."""
    try:
        return await coro
    except Exception:
        return None
