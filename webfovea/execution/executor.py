"""The single executor: the only place where a model's action touches the browser.

One call = one action: budget check, bounds of every point, fingerprints before, the
spec's executor, settle wait, iframe DOM fallback, fingerprints after, feedback note.
Everything action-specific comes from the spec (`execution.context.Runnable`): this file
never tests an action's name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from webfovea.browser.frames import frame_at_point
from webfovea.config import Component, HarnessConfig
from webfovea.execution.context import ExecContext, Outcome, Runnable, View
from webfovea.execution.fallback import dom_click_at
from webfovea.execution.settle import SettleWatcher
from webfovea.feedback import notes
from webfovea.feedback.watch import ChangeWatch
from webfovea.guardrails.bounds import OutOfBounds
from webfovea.guardrails.budgets import ActionBudgets
from webfovea.types import Action


@dataclass
class Executed:
    """The executor's account of one action, for feedback and records."""

    outcome: Outcome
    feedback: str
    changed: bool | None
    fp_before: dict[str, Any] | None
    fp_after: dict[str, Any] | None
    rejected: bool = False
    refusal: str | None = None  # why a guardrail refused it (recorded even when notes are off)
    fallback_used: bool = False  # the iframe DOM fallback delivered the click
    seconds: float = 0.0


class Executor:
    def __init__(self, page: Page, config: HarnessConfig, settle: SettleWatcher) -> None:
        self.page = page
        self.config = config
        self.settle = settle
        self.budgets = ActionBudgets(config)
        self.notes = notes.Notes(config)
        self.find_positions: dict[str, int] = {}

    def _reject(self, text: str) -> Executed:
        return Executed(Outcome(ok=False, check_change=False), self.notes.refusal(text), None, None, None,
                        rejected=True, refusal=text)

    def _check_points(self, spec: Runnable, action: Action, ctx: ExecContext) -> tuple[float, float] | None:
        """Every point of the action inside the image; the CSS point to watch, if any."""
        point = None
        if spec.pointer and action.args.get("start_box") is not None:
            point = ctx.css(action.args["start_box"])
        if action.args.get("end_box") is not None:
            ctx.css(action.args["end_box"], "end_box")
        for i, p in enumerate(action.args.get("points") or []):
            ctx.css(p, f"point {i + 1}")
        return point

    async def run(self, spec: Runnable, action: Action, view: View) -> Executed:
        t0 = time.monotonic()
        left = self.budgets.left(spec.name, spec.budget)
        if left is not None and left <= 0:
            return self._reject(notes.budget_spent(spec.name, spec.budget or 0))
        ctx = ExecContext(self.page, self.config, view, self.find_positions)
        try:
            point = self._check_points(spec, action, ctx)
        except OutOfBounds as e:
            return self._reject(notes.refused(spec.name, str(e)))
        fallback_on = self.config.on(Component.iframe_fallback)
        watching = spec.watch and (self.notes.on or fallback_on)
        watch = await ChangeWatch.start(self.page, point, spec.text_hash) if watching else None
        nav_mark = self.settle.navigations
        self.budgets.spend(spec.name)
        try:
            outcome = await spec.execute(ctx, action)
        except OutOfBounds as e:
            self.budgets.refund(spec.name)
            return self._reject(notes.refused(spec.name, str(e)))
        if outcome.point is None:
            outcome.point = point
        if not outcome.done:
            await self.settle.wait(navigated=outcome.navigated, nav_mark=nav_mark)
        changed: bool | None = None
        fallback_used = False
        if watch is not None and watch.before is not None and outcome.check_change and not outcome.done:
            changed = await watch.changed(self.page, outcome.point)
            if not changed and fallback_on and spec.dom_event and outcome.point is not None \
                    and watch.before.get("child") is not None:
                fallback_used = await self._iframe_fallback(spec.dom_event, outcome.point)
                if fallback_used:
                    changed = await watch.changed(self.page, outcome.point)
        feedback = await self.notes.after_action(
            self.page, spec.name, ok=outcome.ok, note=outcome.note, changed=changed, point=outcome.point,
            fallback_used=fallback_used,
        )
        return Executed(outcome, feedback, changed, watch.before if watch else None, watch.after if watch else None,
                        fallback_used=fallback_used, seconds=time.monotonic() - t0)

    async def _iframe_fallback(self, event: str, point: tuple[float, float]) -> bool:
        """Repeat a click that changed nothing as DOM events inside the child frame it hit."""
        try:
            hit = await frame_at_point(self.page, *point)
        except Exception:
            return False
        if not hit.is_child or hit.is_captcha:
            return False
        nav_mark = self.settle.navigations
        try:
            delivered = await dom_click_at(self.page, *point, kind=event)
        except Exception:
            return False
        if delivered:
            await self.settle.wait(nav_mark=nav_mark)
        return delivered
