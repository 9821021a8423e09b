"""The single executor: the only place where a model's action touches the browser.

One call = one action: budget check, bounds of every point, fingerprints before (which also
open the page-side action window), the spec's executor, settle wait, the next capture,
fingerprints after, the pixel check, the iframe fallback, the feedback note. Everything
action-specific comes from the spec (`execution.context.Runnable`): this file never tests
an action's name.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

from playwright.async_api import Page

from webfovea.browser.frames import frame_at_point
from webfovea.config import Component, HarnessConfig
from webfovea.execution.context import Capture, ExecContext, Outcome, Runnable, Shown, View, Vision
from webfovea.execution.fallback import dom_click_at
from webfovea.execution.refs import Printed, StaleRef, Target, resolve
from webfovea.execution.secrets import put_secrets
from webfovea.execution.settle import Epoch, Grabbed, SettleReport, SettleWatcher
from webfovea.feedback import notes
from webfovea.feedback.element import Where
from webfovea.feedback.watch import ChangeWatch, Verdict
from webfovea.guardrails.bounds import OutOfBounds
from webfovea.guardrails.budgets import ActionBudgets
from webfovea.types import Action

T = TypeVar("T")

OUTCOMES = ("executed", "no_effect", "failed", "rejected")


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
    verdict: Verdict | None = None
    settle: SettleReport | None = None
    next_view: Shown | None = (
        None  # the capture taken once the page settled (the next observation, if unchanged)
    )
    next_epoch: Epoch | None = None  # the page's epoch when it was taken
    finished_early: bool = False  # the after-fingerprints were taken with the capture (window still open)
    target: Target | None = None  # the element a ref named (role, name, semantic locator)
    stale_ref: str | None = None  # why a ref was refused as stale (nothing was executed)

    @property
    def status(self) -> str:
        """executed | no_effect | failed | rejected (machine-readable outcome)."""
        if self.rejected or self.outcome.refused:
            return "rejected"
        if not self.outcome.ok:
            return "failed"
        return "no_effect" if self.changed is False else "executed"


class Executor:
    def __init__(
        self, page: Page, config: HarnessConfig, settle: SettleWatcher, capture: Capture | None = None
    ) -> None:
        self.page = page
        self.config = config
        self.settle = settle
        self.capture = capture
        self.budgets = ActionBudgets(config)
        self.notes = notes.Notes(config)
        self.state: dict[str, Any] = {}  # per-task state of actions (ExecContext.state)
        self.stale_refs = 0  # stale references refused so far (guardrails: config.stale_ref_budget)
        self.vision: Vision | None = None  # for look/locate (set by the harness)
        self._last_target: Target | None = None  # the element the running action's ref named

    def _reject(self, text: str) -> Executed:
        return Executed(
            Outcome(ok=False, check_change=False),
            self.notes.refusal(text),
            None,
            None,
            None,
            rejected=True,
            refusal=text,
        )

    def _check_points(self, spec: Runnable, action: Action, ctx: ExecContext) -> tuple[float, float] | None:
        """Every point of the action inside the image; the CSS point to watch, if any."""
        point = None
        if spec.pointer and (action.args.get("start_box") is not None or ctx.target is not None):
            point = ctx.css(action.args.get("start_box"))
        if action.args.get("end_box") is not None:
            ctx.css(action.args["end_box"], "end_box")
        for i, p in enumerate(action.args.get("points") or []):
            ctx.css(p, f"point {i + 1}")
        return point

    async def _target(self, spec: Runnable, action: Action, ctx: ExecContext) -> Executed | None:
        """Resolve a `ref` target into `ctx.target`; a refusal when it is stale or missing."""
        ref = action.args.get("ref") if getattr(spec, "targets", False) else None
        if ref:
            try:
                target = await resolve(self.page, ref, ctx.snapshot, self.config.ref_timeout_ms)
            except StaleRef as e:
                self.stale_refs += 1
                ex = self._reject(notes.stale_ref(e.ref, e.why))
                ex.stale_ref = e.why
                return ex
            ctx.target = target.point
            self._last_target = target
            return None
        if getattr(spec, "needs_target", False) and action.args.get("start_box") is None:
            return self._reject(notes.needs_target(spec.name))
        return None

    async def run(
        self,
        spec: Runnable,
        action: Action,
        view: View,
        since_obs_s: float | None = None,
        snapshot: Printed | None = None,
    ) -> Executed:
        t0 = time.monotonic()
        left = self.budgets.left(spec.name, spec.budget)
        if left is not None and left <= 0:
            return self._reject(notes.budget_spent(spec.name, spec.budget or 0))
        ctx = ExecContext(
            self.page,
            self.config,
            view,
            state=self.state,
            hover_pause=self.settle.hover_pause,
            snapshot=snapshot,
            vision=self.vision,
        )
        self._last_target = None
        refused = await self._target(spec, action, ctx)
        if refused is not None:
            return refused
        try:
            point = self._check_points(spec, action, ctx)
        except OutOfBounds as e:
            return self._reject(notes.refused(spec.name, str(e)))
        if spec.secret_params and self.config.secrets:
            ctx.typist, why = await put_secrets(self.page, self.config, spec.secret_params, action, point)
            if why is not None:
                return self._reject(notes.refused(spec.name, why))
        fallback_on = self.config.on(Component.iframe_fallback)
        watching = spec.watch and (self.notes.on or fallback_on)
        watch = await ChangeWatch.start(self.page, point, since_obs_s) if watching else None
        await self.settle.arm(since_obs_s, skip=watch.frames if watch else ())
        nav_mark = self.settle.navigations
        self.budgets.spend(spec.name)
        started = time.monotonic()
        try:
            outcome = await spec.execute(ctx, action)
        except OutOfBounds as e:
            self.budgets.refund(spec.name)
            await self.settle.disarm()
            return self._reject(notes.refused(spec.name, str(e)))
        except BaseException:
            await asyncio.shield(self.settle.disarm())
            raise
        if outcome.point is None:
            outcome.point = point
        outcome.response = ctx.response
        ex = Executed(outcome, "", None, watch.before if watch else None, None, target=self._last_target)
        closing: Awaitable[None] | None = (
            None  # closing the action windows, run beside the feedback note (independent)
        )
        if outcome.done:
            closing = self.settle.disarm()
        else:
            reuse = spec.text_hash != "always"
            checking = watch is not None and watch.before is not None and outcome.check_change

            async def grab() -> Grabbed:
                # The next capture and the after-fingerprints side by side, in the final quiet
                # check: both are kept only if nothing changed while they were taken.
                capture = self.capture
                assert capture is not None  # handed to the wait only when there is one
                if watch is None or not checking:
                    return await capture(), False
                shot, _ = await asyncio.gather(
                    capture(),
                    watch.finish(self.page, outcome.point, reuse=reuse, disarm=False),
                )
                return shot, True

            await self.settle.wait(
                navigated=outcome.navigated,
                nav_mark=nav_mark,
                started=started,
                grab=grab if self.capture is not None else None,
            )
            ex.settle = self.settle.last
            await self._look(ex, watch, view, check=outcome.check_change, reuse=reuse)
            if (
                ex.changed is False
                and fallback_on
                and spec.dom_event
                and outcome.point is not None
                and watch is not None
                and watch.before is not None
                and watch.before.get("child") is not None
            ):
                ex.fallback_used = await self._iframe_fallback(spec.dom_event, outcome.point)
                if ex.fallback_used:
                    await self._look(ex, watch, view, check=True)
            closed = (
                watch.frames
                if watch is not None and ex.fp_after is not None and not ex.finished_early
                else ()
            )
            closing = self.settle.disarm(skip=closed)
        still = ex.settle.seconds if ex.settle is not None and ex.settle.timed_out else None
        ex.feedback, _ = await asyncio.gather(
            self.notes.after_action(
                self.page,
                spec.name,
                ok=outcome.ok,
                note=ctx.response.told(outcome.note),
                changed=ex.changed,
                point=Where(outcome.point, view.to_model) if outcome.point is not None else None,
                fallback_used=ex.fallback_used,
                verdict=ex.verdict,
                still_changing_s=still,
                held_by=ex.settle.held_by if ex.settle is not None else "dom",
            ),
            closing,
        )
        ex.seconds = time.monotonic() - t0
        return ex

    async def _look(
        self, ex: Executed, watch: ChangeWatch | None, view: View, *, check: bool, reuse: bool = False
    ) -> None:
        """After the settle wait: the next capture and the after-fingerprints, side by side;
        then the verdict (the pixels decide only when the DOM shows no effect)."""
        point = ex.outcome.point
        grabbed, self.settle.grabbed = self.settle.grabbed, None
        finished = False
        next_one: Awaitable[tuple[Shown | None, Epoch | None]]
        if grabbed is not None:
            (shot, finished), epoch = grabbed
            next_one = _done((shot, epoch))
            ex.finished_early = finished
        else:
            next_one = self._grab()
        if watch is not None and watch.before is not None and check and not finished:
            (ex.next_view, ex.next_epoch), _ = await asyncio.gather(
                next_one, watch.finish(self.page, point, reuse=reuse)
            )
        else:
            ex.next_view, ex.next_epoch = await next_one
        if watch is None or watch.before is None or not check:
            return
        ex.fp_after = watch.after
        shown = getattr(view, "image", None)
        now = ex.next_view.image if ex.next_view is not None else None
        pixels_on = self.config.on(Component.feedback_notes)
        digests = getattr(view, "digest", None), (ex.next_view.digest if ex.next_view is not None else None)
        same = digests[0] is not None and digests[0] == digests[1]
        ex.verdict = watch.verdict(
            point,
            shown if pixels_on else None,
            now,
            (view.css_width, view.css_height),
            same=same,
            method=self.config.change_detection,
        )
        ex.changed = ex.verdict.changed

    async def _grab(self) -> tuple[Shown | None, Epoch | None]:
        """The capture the next observation will reuse if nothing changes before it."""
        if self.capture is None:
            return None, None
        try:
            e1 = await self.settle.epoch()
            shot = await self.capture()
            e2 = await self.settle.epoch()
        except Exception:
            return None, None
        return shot, (e1 if e1 == e2 else None)

    async def _iframe_fallback(self, event: str, point: tuple[float, float]) -> bool:
        """Repeat a click that changed nothing as DOM events inside the child frame it hit."""
        try:
            hit = await frame_at_point(self.page, *point)
        except Exception:
            return False
        if not hit.is_child or hit.is_captcha:
            return False
        nav_mark = self.settle.navigations
        started = time.monotonic()
        try:
            delivered = await dom_click_at(self.page, *point, kind=event)
        except Exception:
            return False
        if delivered:
            await self.settle.wait(nav_mark=nav_mark, started=started)
        return delivered


async def _done(value: T) -> T:
    return value
