"""The single executor: the only place where a model's action touches the browser.

One call = one action: budget check, coordinate mapping and bounds, fingerprints before,
the spec's executor, settle wait, iframe DOM fallback, fingerprints after, feedback note.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from webfovea.actions.spec import ActionSpec, Outcome
from webfovea.actions.types import Action
from webfovea.config import Component, HarnessConfig
from webfovea.execution import dom
from webfovea.execution.settle import SettleWatcher
from webfovea.observation.capture import Shot


class OutOfBounds(ValueError):
    pass


@dataclass
class ExecContext:
    page: Page
    config: HarnessConfig
    shot: Shot
    settle: SettleWatcher
    find_positions: dict[str, int] = field(default_factory=dict)

    def on(self, c: Component) -> bool:
        return self.config.on(c)

    def css(self, point: Any, what: str = "start_box") -> tuple[float, float]:
        """Map a model point to CSS pixels, rejecting points outside the image."""
        x, y = float(point[0]), float(point[1])
        if not self.shot.in_bounds(x, y):
            raise OutOfBounds(
                f"{what} ({x:g}, {y:g}) is outside the screenshot ({self.shot.bounds_text()}); "
                "give a point inside the image."
            )
        return self.shot.to_css(x, y)


@dataclass
class Executed:
    """The executor's account of one action, for feedback and records."""

    outcome: Outcome
    feedback: str
    changed: bool | None
    fp_before: dict[str, Any] | None
    fp_after: dict[str, Any] | None
    rejected: bool = False
    fallback_used: bool = False
    seconds: float = 0.0


class Executor:
    def __init__(self, page: Page, config: HarnessConfig, settle: SettleWatcher) -> None:
        self.page = page
        self.config = config
        self.settle = settle
        self.used: Counter[str] = Counter()
        self.find_positions: dict[str, int] = {}

    def budget_left(self, spec: ActionSpec) -> int | None:
        if spec.budget is None or not self.config.on(Component.budgets):
            return None
        return spec.budget - self.used[spec.name]

    def _reject(self, note: str) -> Executed:
        return Executed(Outcome(ok=False, check_change=False), note, None, None, None, rejected=True)

    async def run(self, spec: ActionSpec, action: Action, shot: Shot) -> Executed:
        t0 = time.monotonic()
        left = self.budget_left(spec)
        if left is not None and left <= 0:
            return self._reject(
                f"{spec.name} was not executed: its budget of {spec.budget} calls for this task is spent. "
                "Use another way to make progress."
            )
        ctx = ExecContext(self.page, self.config, shot, self.settle, self.find_positions)
        point = None
        try:
            if spec.pointer and action.args.get("start_box") is not None:
                point = ctx.css(action.args["start_box"])
            if action.args.get("end_box") is not None:
                ctx.css(action.args["end_box"], "end_box")
            for i, p in enumerate(action.args.get("points") or []):
                ctx.css(p, f"point {i + 1}")
        except OutOfBounds as e:
            return self._reject(f"{spec.name} was not executed: {e}")
        notes_on = self.config.on(Component.feedback_notes)
        watch = spec.watch and (notes_on or self.config.on(Component.iframe_fallback))
        fp_before = None
        if watch and point is not None:
            fp_before = await _safe(dom.fingerprints_at(self.page, *point))
        elif watch:
            fp_before = await _safe(dom.fingerprints_at(self.page, -1, -1))
        hash_frame = None
        if fp_before is not None and point is not None and (spec.name == "hover" or spec.clicky):
            hash_frame = await _hash_frame(self.page, point, always=spec.name == "hover")
            if hash_frame is not None:
                fp_before["text_hash"] = await _safe(dom.text_hash(hash_frame))
        nav_mark = self.settle.navigations
        self.used[spec.name] += 1
        try:
            outcome = await spec.execute(ctx, action)
        except OutOfBounds as e:
            self.used[spec.name] -= 1
            return self._reject(f"{spec.name} was not executed: {e}")
        if outcome.point is None:
            outcome.point = point
        if not outcome.done:
            await self.settle.wait(navigated=outcome.navigated, nav_mark=nav_mark)
        fp_after = None
        changed: bool | None = None
        fallback_used = False
        if fp_before is not None and outcome.check_change and not outcome.done:
            fp_after = await _safe(_fingerprints_like(self.page, outcome, hash_frame))
            changed = _changed(fp_before, fp_after)
            if (
                not changed
                and spec.clicky
                and outcome.point is not None
                and self.config.on(Component.iframe_fallback)
                and fp_before.get("child") is not None
            ):
                hit = await _safe(dom.frame_at_point(self.page, *outcome.point))
                if hit is not None and hit.is_child and not hit.is_captcha:
                    kind = {"left_double": "dblclick", "right_single": "contextmenu"}.get(spec.name, "click")
                    nav_mark = self.settle.navigations
                    if await _safe(dom.dom_click_at(self.page, *outcome.point, kind=kind)):
                        fallback_used = True
                        await self.settle.wait(nav_mark=nav_mark)
                        fp_after = await _safe(_fingerprints_like(self.page, outcome, hash_frame))
                        changed = _changed(fp_before, fp_after)
        feedback = outcome.note
        if notes_on and changed is False and outcome.point is not None:
            info = await _safe(dom.describe_at(self.page, *outcome.point))
            where = info.sentence() if info is not None else ""
            feedback = _join(feedback, f"No detectable change on the page after {spec.name}. {where}".strip())
        elif notes_on and changed is False:
            feedback = _join(feedback, f"No detectable change on the page after {spec.name}.")
        if fallback_used and changed:
            feedback = _join(feedback, "The click was delivered to the element inside the embedded frame.")
        if not notes_on and not outcome.ok:
            feedback = ""  # the reference agent told the model nothing
        return Executed(outcome, feedback, changed, fp_before, fp_after, False, fallback_used,
                        time.monotonic() - t0)


async def _fingerprints_like(page: Page, outcome: Outcome, hash_frame: Any) -> dict[str, Any]:
    x, y = outcome.point if outcome.point is not None else (-1, -1)
    fp = await dom.fingerprints_at(page, x, y)
    if hash_frame is not None:
        fp["text_hash"] = await _safe(dom.text_hash(hash_frame))
    return fp


_SVG_CANVAS_AT = "([x, y]) => { const e = document.elementFromPoint(x, y); return !!(e && e.closest('svg, canvas')); }"


async def _hash_frame(page: Page, point: tuple[float, float], *, always: bool) -> Any:
    """The frame whose text hash tells whether a hover or an SVG/canvas click did anything."""
    hit = await _safe(dom.frame_at_point(page, *point))
    if hit is None:
        return None
    if always:
        return hit.frame
    on_chart = await _safe(hit.frame.evaluate(_SVG_CANVAS_AT, [hit.local_x, hit.local_y]))
    return hit.frame if on_chart else None


def _changed(before: dict[str, Any] | None, after: dict[str, Any] | None) -> bool | None:
    if before is None or after is None:
        return None
    if before.get("text_hash") and after.get("text_hash") and before["text_hash"] != after["text_hash"]:
        return True
    return dom.changed(before, after)


def _join(a: str, b: str) -> str:
    return f"{a} {b}".strip() if a else b


async def _safe(coro: Any) -> Any:
    """DOM probes must never break a step: a page mid-navigation just yields no probe."""
    try:
        return await coro
    except Exception:
        return None
