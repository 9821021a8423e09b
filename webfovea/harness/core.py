"""The Harness class: the stages of one step in order (how to use it: `webfovea/harness/__init__.py`).

It passes one step's data through `parsing/`, `execution/`, `feedback/`, `observation/` and
`guardrails/` and owns nothing else; its hold on the pages is `pages.py`, the review of a
`finished` is `review.py`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Generator
from typing import Any

from playwright.async_api import Page

from webfovea import secrets
from webfovea.actions import catalog
from webfovea.actions.tools import tool_defs
from webfovea.browser.session import BrowserLost, BrowserSession, is_browser_lost
from webfovea.browser.world import PageUnresponsive
from webfovea.config import Component, HarnessConfig, make_config
from webfovea.documents.views import DocumentViews
from webfovea.execution.executor import Executor
from webfovea.execution.response import Response
from webfovea.execution.settle import Epoch, SettleWatcher
from webfovea.feedback import notes
from webfovea.guardrails.answer import AnswerGate
from webfovea.guardrails.breaker import LoopBreaker, ScrollBreaker
from webfovea.guardrails.evidence import EvidenceKeeper
from webfovea.guardrails.forbidden import forbidden_for
from webfovea.guardrails.pagewatch import PageWatch
from webfovea.guardrails.site import SiteGuard
from webfovea.guardrails.verifier import Verifier
from webfovea.guardrails.verify import VerifyGate
from webfovea.harness.pages import PageKeeper
from webfovea.harness.results import Launch, Observation, StepResult
from webfovea.harness.review import review_answer
from webfovea.models.base import Model, ModelInput, ToolCall
from webfovea.observation.capture import Screen, Shot
from webfovea.observation.history import History
from webfovea.observation.modes import Seen
from webfovea.observation.modes import get as get_mode
from webfovea.observation.prompt import system_prompt
from webfovea.observation.secret_hiding import scrubbed
from webfovea.observation.sizing import harness_config
from webfovea.observation.vision import VisionPort, css_viewport
from webfovea.parsing import parse_reply
from webfovea.parsing.tool_call import parse_tool_call
from webfovea.types import ParsedReply, Rejection

__all__ = ["BrowserLost", "Harness", "Observation", "PageUnresponsive", "StepResult", "is_browser_lost"]

_REUSE_MAX_S = 5.0  # an older capture is taken again even if the page looks unchanged


class Harness(PageKeeper):
    def __init__(self, page: Page | None = None, config: HarnessConfig | None = None) -> None:
        self.config = config or make_config()
        secrets.remember(self.config.secrets)  # scrubbed from what the model and the records get
        self.mode = get_mode(self.config.observation)
        self._page = page
        self._session: BrowserSession | None = None
        self._launch: Launch | None = None
        self.specs = catalog.offered(
            self.config, snapshot=self.mode.snapshot, refs=self.mode.refs, points=self.mode.points
        )
        self._by_name = {s.name: s for s in self.specs}
        self._parser_specs = catalog.parser_specs(self.specs)
        # The closed action set's refusals, minus any kind of action this profile offers.
        self._forbidden = forbidden_for({n for s in self.specs for n in (s.name, *s.aliases)})
        self.system_prompt = system_prompt(self.specs, self.config, self.mode)
        # What the last action asked to show with the next input only (execution/response.py).
        self._told = Response()
        # Native tool use: the same specs as tools, and the prompt that goes with them.
        self.tools = tool_defs(self.specs, with_budgets=self.config.on(Component.budgets))
        self.system_prompt_tools = system_prompt(self.specs, self.config, self.mode, tools=True)
        self.history = History(self.config.screenshot_window)
        self.notes = notes.Notes(self.config)
        self.breaker = ScrollBreaker(self.config)
        self.loops = LoopBreaker(self.config)
        # Off until the agent gives the task (VerifyGate.for_task): a bare Harness has no task.
        self.verify = VerifyGate()
        self.answers = AnswerGate()  # a task's answer schema (guardrails/answer.py)
        self.verifier = Verifier()  # off until the task's driver turns it on (Verifier.for_task)
        self.evidence = EvidenceKeeper()  # what an answer was read from (guardrails/evidence.py)
        self.ocr_held = False  # the OCR cross-check held a finished (once per task)
        self.steps = 0
        self._capture_seen: tuple[object, dict[str, int]] = (None, {})  # Screen, its counts at the last step
        self.last: Observation | None = None
        # The reply being executed and the view it was made against, from the parse until the
        # step returns: the task driver records it when the step raises (a frozen page).
        self.in_flight: tuple[ParsedReply, Observation] | None = None
        self.last_feedback: str | None = None
        self.guard: SiteGuard | None = None
        self.watch = PageWatch(self.config)
        self.documents = DocumentViews()  # documents a download yields, shown in the tab
        self._ready = False
        self._next: tuple[Shot, Epoch, float] | None = (
            None  # a capture taken after the last step, its epoch, time
        )
        self._shown_at: float | None = None  # when the capture the model is looking at was taken
        self._still = False  # the last action's pixel check saw no change (observe reads it once)
        self.reused_captures = 0
        self._known_pages: set[Page] = set()
        # look/locate: (model, label, separate) set by use_vision, else built from config.vision_model
        self._vision: tuple[Model, str, bool] | None = None
        self._own_vision: Model | None = None  # a vision model this harness built (closed with it)

    # construction -----------------------------------------------------------------------
    @staticmethod
    def _config(options: dict[str, Any]) -> HarnessConfig:
        """The config from `config=`, or built from `model=` (its conventions row picks the
        coordinate convention and the screenshot cap), `cap=`, `profile=`, `disable=`,
        `viewport=` and HarnessConfig fields."""
        cfg: HarnessConfig | None = options.pop("config", None)
        model = options.pop("model", None)
        cap = options.pop("cap", None)
        if cfg is not None:
            if model is not None or cap is not None:
                raise TypeError(
                    "config= already fixes the cap and conventions: drop model=/cap=, or build "
                    "the config with webfovea.observation.sizing.harness_config(model=..., cap=...)"
                )
            return cfg
        profile = options.pop("profile", "webfovea")
        disable = options.pop("disable", None)
        return harness_config(profile, disable, model=model, cap=cap, **options)

    @classmethod
    def launch(
        cls,
        url: str | None = None,
        *,
        headless: bool = True,
        executable: str | None = None,
        model: str | None = None,
        cap: tuple[int, int] | str | None = None,
        offline: bool | None = None,
        **options: Any,
    ) -> Harness:
        """A harness on a new local Chromium. Use `async with` (or `await`) to start it.

        `model=SPEC` selects the model's conventions row: the screenshot is capped so that
        the model's provider never resizes it, and coordinates are read in its space.
        `offline=True` keeps every name but localhost from resolving (tests, the proving
        ground); the default ($WEBFOVEA_OFFLINE, else off) reaches real websites.
        `vision_model=SPEC` (a HarnessConfig field) sends look/locate to that model.
        """
        h = cls(None, cls._config({**options, "model": model, "cap": cap}))
        h._launch = Launch(url, None, headless, executable, offline)
        return h

    @classmethod
    def connect(
        cls,
        cdp_url: str,
        url: str | None = None,
        *,
        model: str | None = None,
        cap: tuple[int, int] | str | None = None,
        **options: Any,
    ) -> Harness:
        """A harness on a running browser reached over CDP (`model=`, `cap=` as in `launch`)."""
        h = cls(None, cls._config({**options, "model": model, "cap": cap}))
        h._launch = Launch(url, cdp_url)
        return h

    @classmethod
    async def on_page(cls, page: Page, config: HarnessConfig | None = None) -> Harness:
        """A harness around a page someone else owns (the agent loop, the runner)."""
        h = cls(page, config)
        await h._prepare()
        return h

    async def start(self) -> Harness:
        if self._ready:
            return self
        if self._launch is not None and self._page is None:
            vp = (self.config.viewport_width, self.config.viewport_height)
            if self._launch.cdp_url:
                self._session = await BrowserSession.connect(self._launch.cdp_url, viewport=vp)
            else:
                self._session = await BrowserSession.launch(
                    viewport=vp,
                    headless=self._launch.headless,
                    executable=self._launch.executable,
                    offline=self._launch.offline,
                )
            self._page = await self._session.fresh_page()
        await self._prepare()
        if self._launch is not None and self._launch.url:
            await self.guard_site(self._launch.url)
            await self.goto(self._launch.url)
        return self

    async def _prepare(self) -> None:
        assert self._page is not None
        self.settle = SettleWatcher(self._page, self.config)
        await self.settle.install()
        self.screen = Screen(self._page, self.config)
        self.executor = Executor(self._page, self.config, self.settle, capture=self.screen.capture)
        self._known_pages = set(self._page.context.pages)
        for page in self._known_pages:
            await self.watch.attach(page)
        self._page.context.on("page", self._on_new_page)
        self._ready = True

    def __await__(self) -> Generator[Any, None, Harness]:
        return self.start().__await__()

    async def __aenter__(self) -> Harness:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self.release()
        if self._own_vision is not None:
            try:
                await self._own_vision.aclose()
            except Exception:
                pass
            self._own_vision = None
        if getattr(self, "screen", None) is not None:
            await self.screen.detach()
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def release(self) -> None:
        self.evidence.close()
        await super().release()

    def use_vision(self, model: Model, *, label: str = "task model", separate: bool = False) -> None:
        """Who answers look/locate: a separate vision model, or (separate=False) the task's own
        model in a separate plain call. The agent sets it; a bare harness builds
        `config.vision_model` itself on first use."""
        self._vision = (model, label, separate)
        if getattr(self, "executor", None) is not None:
            self.executor.vision = None  # rebuilt for the next action

    def _vision_port(self) -> VisionPort | None:
        if self._vision is None and self.config.vision_model:
            from webfovea.models.factory import make_model

            self._own_vision = make_model(
                self.config.vision_model,
                page=self.page,
                base_url=self.config.vision_base_url,
                sampling=self.config.sampling(),
            )
            self._vision = (self._own_vision, self.config.vision_model, True)
        if self._vision is None:
            return None
        model, label, separate = self._vision
        return VisionPort(
            model,
            label=label,
            separate=separate,
            capture=lambda: self.screen.capture(),
            viewport=lambda: css_viewport(self.page),
        )

    # the round trip ------------------------------------------------------------------------
    async def observe(self) -> Observation:
        await self.ensure_alive()
        try:
            shot, taken = await self._reuse(), time.monotonic()
            still = shot is not None and self._still
            if shot is None:
                shot = await self.screen.capture()
            else:
                taken = self._next[2] if self._next else taken
                self.reused_captures += 1
        except Exception as e:
            if (lost := self._lost(e)) is not None:
                raise lost from None
            raise
        self._next = None
        self._shown_at = taken
        self._still = False
        self.last = Observation(
            image=shot.image, shot=shot, url=self.page.url, step=self.steps, unchanged=still
        )
        snap = await self.mode.observe(self.page, self.config)  # the snapshot modes' snapshot
        if snap is not None:
            self.last.snapshot, self.last.snapshot_info = snap.text, snap
        return self.last

    async def _reuse(self) -> Shot | None:
        """The capture the last step took once the page settled, if nothing changed since."""
        if self._next is None:
            return None
        shot, epoch, taken = self._next
        if time.monotonic() - taken > _REUSE_MAX_S:
            return None
        try:
            return shot if await self.settle.epoch() == epoch else None
        except Exception:
            return None

    def model_input(self, task: str) -> ModelInput:
        """What the model is shown now: prompt, task, full text history, what the observation
        mode shows (screenshots, snapshot), feedback, and what the last action attached."""
        seen = Seen(
            system=self.system_prompt,
            task=task,
            step=self.steps,
            feedback=self.last_feedback,
            image=self.last.image if self.last is not None else None,
            snapshot=self.last.snapshot if self.last is not None else None,
            response=self._told,
            shot=self.last.shot if self.last is not None else None,
            unchanged=self.last is not None
            and self.last.unchanged
            and self.config.on(Component.unchanged_view_text),
        )
        inp = self.mode.model_input(self.history, seen)
        inp.tools, inp.system_tools = list(self.tools), self.system_prompt_tools
        inp.append_history = self.config.on(Component.append_history)
        inp.compact_every = self.config.compact_every
        inp.attachments = list(self._told.attachments)
        return scrubbed(inp)

    async def step(
        self, reply: str, tool_calls: list[ToolCall] | None = None, withheld: str | None = None
    ) -> StepResult:
        """observe (if needed) -> parse -> execute -> feedback; the caller records the result.

        With `tool_calls` (native tool use) the first call is the action and `reply` is the
        text the model wrote beside it; further calls are not executed (one action per step:
        the model client answers them so). `withheld`: the reply is parsed and kept in the
        history but not executed, for this reason (a reply the provider cut off)."""
        t0 = time.monotonic()
        obs = self.last if self.last is not None else await self.observe()
        parsed = self.parse(reply, tool_calls)
        if withheld is not None:
            parsed = dataclasses.replace(parsed, action=None, rejection=Rejection(withheld, parsed.action))
        self.steps += 1
        kept = obs.shot.kept() if obs.image is obs.shot.image else obs.image
        self.mode.remember(self.history, parsed.cleaned, kept, obs.snapshot_info, self.steps)
        self._told = Response()
        self.last = None
        self.in_flight = (parsed, obs)
        result = await self._bounded(self._execute(parsed, obs))
        shown = self.documents.opened
        events = await self._events()
        if self.documents.opened > shown and result.outcome == "no_effect":
            result.feedback = events  # the action's "no change" was the document opening meanwhile
        elif events:
            result.feedback = f"{result.feedback} {events}".strip()
            self._next = None  # a dialog, download, blocked navigation or tab came after that capture
        self.last_feedback = result.feedback or None
        result.capture = self._capture_troubles()
        result.seconds = time.monotonic() - t0
        self.in_flight = None
        return result

    def parse(self, reply: str, tool_calls: list[ToolCall] | None = None) -> ParsedReply:
        """The reply as `step` reads it (no side effect): what a reader of the step's target
        (the workflow cache) needs before the action runs."""
        strip = self.config.on(Component.token_strip)
        if tool_calls:
            return parse_tool_call(
                tool_calls[0],
                self._parser_specs,
                thought=reply,
                strip_tokens=strip,
                forbidden=self._forbidden,
            )
        return parse_reply(
            reply,
            self._parser_specs,
            strip_tokens=strip,
            first_only=self.config.on(Component.first_action),
            forbidden=self._forbidden,
        )

    def _capture_troubles(self) -> dict[str, int] | None:
        """What the captures since the last step needed beyond one request (a new Screen, after
        a tab switch, counts from zero)."""
        screen = getattr(self, "screen", None)
        if screen is None:
            return None
        now = screen.counts()
        seen_screen, seen = self._capture_seen
        base = seen if seen_screen is screen else {}
        self._capture_seen = (screen, now)
        delta = {k: v - base.get(k, 0) for k, v in now.items() if v - base.get(k, 0) > 0}
        return delta or None

    async def _execute(self, parsed: ParsedReply, obs: Observation) -> StepResult:
        if parsed.action is None or parsed.rejection is not None:
            reason = parsed.rejection.reason if parsed.rejection else "the reply could not be parsed"
            return StepResult(
                parsed.action,
                self.notes.refusal(notes.not_executed(reason)),
                error=reason,
                parsed=parsed,
                observation=obs,
                outcome="rejected",
            )
        action = parsed.action
        spec = self._by_name[action.name]
        if self.executor.vision is None:
            self.executor.vision = self._vision_port()
        since = time.monotonic() - self._shown_at if self._shown_at is not None else None
        try:
            executed = await self.executor.run(
                spec, action, obs.shot, since_obs_s=since, snapshot=obs.snapshot_info
            )
        except Exception as e:
            if (lost := self._lost(e)) is not None:
                raise lost from None
            text = notes.failed_on_page(action.name, e)
            return StepResult(
                action, self.notes.refusal(text), error=text, parsed=parsed, observation=obs, outcome="failed"
            )
        result = StepResult(
            action,
            executed.feedback,
            parsed=parsed,
            executed=executed,
            observation=obs,
            outcome=executed.status,
        )
        # The executor captures with self.screen, so its next view is a Shot.
        if isinstance(executed.next_view, Shot) and executed.next_epoch is not None:
            self._next = (executed.next_view, executed.next_epoch, time.monotonic())
            v = executed.verdict  # no change at all, in the DOM or in any cell of the pixel grid
            self._still = v is not None and v.changed is False and v.pixels is not None and not v.pixels
        self._told = told = executed.outcome.response
        self.evidence.saw(told.read, executed.outcome.point, [a.image for a in told.attachments])
        if executed.rejected:
            result.error = executed.refusal
        elif result.outcome in ("failed", "rejected"):
            result.error = executed.outcome.note or f"{action.name} failed"
        if executed.outcome.done:
            # The one place a `finished` is accepted: the answer gate refuses an answer that does
            # not meet the task's schema, the verify gate may hold the first one.
            answer = executed.outcome.answer or ""
            if self.answers.active:
                result.answer_value, invalid = await self.answers.check(answer)
                if invalid is not None and self.answers.refuse():
                    result.answer, result.answer_invalid = answer, invalid
                    result.feedback = notes.answer_invalid(invalid)
                    return result
            if self.verify.holds():
                await self._show_real_state()
                result.verification_requested = True
                result.answer = executed.outcome.answer or ""
                result.feedback = notes.verify_request(self.verify.url)
            else:  # its evidence, the OCR cross-check and the verifier (harness/review.py)
                await review_answer(self, obs, answer, result)
        elif executed.stale_ref is not None and self.executor.stale_refs > self.config.stale_ref_budget:
            result.done, result.stop_reason = True, "stale_refs"
            result.error = notes.stale_refs_spent(self.config.stale_ref_budget)
        elif self.breaker.fires(spec.counts_as_scroll, executed.changed):
            result.done, result.stop_reason, result.error = True, "scroll_breaker", self.breaker.reason()
        elif self.loops.fires(
            action.name,
            action.args,
            executed.outcome.point,
            pointer=spec.pointer and not spec.counts_as_scroll,
            changed=executed.changed,
        ):
            result.done, result.stop_reason, result.error = True, "loop_breaker", self.loops.reason()
        return result
