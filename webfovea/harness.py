"""`webfovea.Harness`: one page, one round trip per `step()`.

    async with Harness.launch("http://127.0.0.1:8000/stats") as h:
        obs = await h.observe()          # obs.image: exactly what the model is sent
        res = await h.step(reply_text)   # parse -> execute -> settle -> feedback
        res.action, res.feedback, res.done, res.answer, res.error

The agent loop (`webfovea.agent`), the CLI and the proving ground build on this class.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from playwright.async_api import Page

from webfovea.actions import catalog
from webfovea.actions.types import Action, ParsedReply
from webfovea.browser.session import BrowserSession
from webfovea.config import Component, HarnessConfig, make_config
from webfovea.execution.executor import Executed, Executor
from webfovea.execution.settle import SettleWatcher
from webfovea.models.base import ModelInput
from webfovea.observation.capture import Screen, Shot
from webfovea.observation.prompt import system_prompt
from webfovea.observation.sizing import harness_config
from webfovea.parsing.reply import parse_reply

_LOST_MARKERS = ("Target closed", "has been closed", "Connection closed", "Browser closed", "crashed",
                 "Target page, context or browser has been closed", "Session closed")


class BrowserLost(RuntimeError):
    """The browser or its connection is gone: the task ends as a recorded failure."""


def is_browser_lost(exc: BaseException) -> bool:
    return isinstance(exc, BrowserLost) or any(m in str(exc) for m in _LOST_MARKERS)


@dataclass
class Observation:
    image: Image.Image  # exactly the image the model is sent
    shot: Shot
    url: str
    step: int


@dataclass
class StepResult:
    action: Action | None
    feedback: str
    done: bool = False
    answer: str | None = None
    error: str | None = None  # why the reply was not executed, or why the task must stop
    stop_reason: str | None = None  # 'finished' or a guardrail that ended the task
    parsed: ParsedReply | None = None
    executed: Executed | None = None
    observation: Observation | None = None  # the view the reply was made against
    seconds: float = 0.0


@dataclass
class _Launch:
    url: str | None
    cdp_url: str | None
    headless: bool = True
    executable: str | None = None


@dataclass
class _History:
    replies: list[str] = field(default_factory=list)  # cleaned Thought/Action text per step
    images: list[Image.Image] = field(default_factory=list)


class Harness:
    def __init__(self, page: Page | None = None, config: HarnessConfig | None = None) -> None:
        self.config = config or make_config()
        self._page = page
        self._session: BrowserSession | None = None
        self._launch: _Launch | None = None
        self.specs = catalog.offered(self.config)
        self._by_name = {s.name: s for s in self.specs}
        self._parser_specs = catalog.parser_specs(self.specs)
        self.system_prompt = system_prompt(self.specs, self.config)
        self.history = _History()
        self.steps = 0
        self.last: Observation | None = None
        self.last_feedback: str | None = None
        self._scrolls = 0
        self._ready = False
        self.started = time.monotonic()

    # construction -----------------------------------------------------------------------
    @staticmethod
    def _config(options: dict[str, Any]) -> HarnessConfig:
        """The config from `config=`, or built from `model=` (its conventions row picks the
        coordinate convention and the screenshot cap), `cap=`, `profile=`, `disable=`,
        `viewport=` and HarnessConfig fields."""
        cfg = options.pop("config", None)
        model = options.pop("model", None)
        cap = options.pop("cap", None)
        if cfg is not None:
            if model is not None or cap is not None:
                raise TypeError("config= already fixes the cap and conventions: drop model=/cap=, or build "
                                "the config with webfovea.observation.sizing.harness_config(model=..., cap=...)")
            return cfg
        profile = options.pop("profile", "webfovea")
        disable = options.pop("disable", None)
        return harness_config(profile, disable, model=model, cap=cap, **options)

    @classmethod
    def launch(cls, url: str | None = None, *, headless: bool = True, executable: str | None = None,
               model: str | None = None, cap: tuple[int, int] | str | None = None, **options: Any) -> Harness:
        """A harness on a new local Chromium. Use `async with` (or `await`) to start it.

        `model=SPEC` selects the model's conventions row: the screenshot is capped so that
        the model's provider never resizes it, and coordinates are read in its space.
        """
        h = cls(None, cls._config({**options, "model": model, "cap": cap}))
        h._launch = _Launch(url, None, headless, executable)
        return h

    @classmethod
    def connect(cls, cdp_url: str, url: str | None = None, *, model: str | None = None,
                cap: tuple[int, int] | str | None = None, **options: Any) -> Harness:
        """A harness on a running browser reached over CDP (`model=`, `cap=` as in `launch`)."""
        h = cls(None, cls._config({**options, "model": model, "cap": cap}))
        h._launch = _Launch(url, cdp_url)
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
                    viewport=vp, headless=self._launch.headless, executable=self._launch.executable
                )
            self._page = await self._session.fresh_page()
        await self._prepare()
        if self._launch is not None and self._launch.url:
            await self.goto(self._launch.url)
        return self

    async def _prepare(self) -> None:
        assert self._page is not None
        self.settle = SettleWatcher(self._page, self.config)
        await self.settle.install()
        self.screen = Screen(self._page, self.config)
        self.executor = Executor(self._page, self.config, self.settle)
        self.started = time.monotonic()
        self._ready = True

    def __await__(self):  # type: ignore[no-untyped-def]
        return self.start().__await__()

    async def __aenter__(self) -> Harness:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if getattr(self, "screen", None) is not None:
            await self.screen.detach()
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def page(self) -> Page:
        assert self._page is not None, "the harness is not started: use `async with Harness.launch(...)`"
        return self._page

    async def goto(self, url: str) -> None:
        """Open the task's start page. Harness-side only: the model has no way to navigate by URL."""
        mark = self.settle.navigations
        try:
            await self.page.goto(url, wait_until="domcontentloaded", timeout=30_000)
        except Exception as e:
            if is_browser_lost(e):
                raise BrowserLost(str(e).splitlines()[0]) from None
            raise
        await self.settle.wait(navigated=True, nav_mark=mark)

    # the round trip ------------------------------------------------------------------------
    async def observe(self) -> Observation:
        try:
            shot = await self.screen.capture()
        except Exception as e:
            if is_browser_lost(e) or self.page.is_closed():
                raise BrowserLost(str(e).splitlines()[0]) from None
            raise
        self.last = Observation(image=shot.image, shot=shot, url=self.page.url, step=self.steps)
        return self.last

    def model_input(self, task: str) -> ModelInput:
        """What the model is shown now: prompt, task, full text history, last N screenshots, feedback."""
        window = self.config.screenshot_window
        images = list(self.history.images[-(window - 1):]) if window > 1 else []
        if self.last is not None:
            images.append(self.last.image)
        return ModelInput(
            system=self.system_prompt,
            task=task,
            history=list(self.history.replies),
            images=images,
            feedback=self.last_feedback,
            step=self.steps,
        )

    async def step(self, reply: str) -> StepResult:
        t0 = time.monotonic()
        obs = self.last if self.last is not None else await self.observe()
        parsed = parse_reply(
            reply,
            self._parser_specs,
            strip_tokens=self.config.on(Component.token_strip),
            first_only=self.config.on(Component.first_action),
        )
        self.steps += 1
        self.history.replies.append(parsed.cleaned)
        self.history.images.append(obs.image)
        self.history.images = self.history.images[-max(self.config.screenshot_window, 1):]
        self.last = None
        if parsed.action is None or parsed.rejection is not None:
            reason = parsed.rejection.reason if parsed.rejection else "the reply could not be parsed"
            self.last_feedback = f"Not executed: {reason}"
            return StepResult(parsed.action, self.last_feedback, error=reason, parsed=parsed, observation=obs,
                              seconds=time.monotonic() - t0)
        action = parsed.action
        spec = self._by_name[action.name]
        try:
            executed = await self.executor.run(spec, action, obs.shot)
        except Exception as e:
            if is_browser_lost(e) or self.page.is_closed():
                raise BrowserLost(str(e).splitlines()[0]) from None
            note = f"{action.name} failed on the page: {str(e).splitlines()[0][:300]}"
            self.last_feedback = note
            return StepResult(action, note, error=note, parsed=parsed, observation=obs,
                              seconds=time.monotonic() - t0)
        out = executed.outcome
        feedback = executed.feedback
        result = StepResult(action, feedback, parsed=parsed, executed=executed, observation=obs)
        if executed.rejected:
            result.error = feedback
        if out.done:
            result.done, result.answer, result.stop_reason = True, out.answer or "", "finished"
        elif self._scroll_breaker(action.name, executed.changed):
            result.done, result.stop_reason = True, "scroll_breaker"
            result.error = (
                f"Stopped: {self.config.scroll_breaker_limit} consecutive scrolls"
                + (" and the page stopped changing." if self.config.on(Component.scroll_breaker_needs_no_change) else ".")
            )
        self.last_feedback = feedback or None
        result.seconds = time.monotonic() - t0
        return result

    def _scroll_breaker(self, name: str, changed: bool | None) -> bool:
        self._scrolls = self._scrolls + 1 if name == "scroll" else 0
        if self._scrolls < self.config.scroll_breaker_limit:
            return False
        if self.config.on(Component.scroll_breaker_needs_no_change):
            return changed is False
        return True
