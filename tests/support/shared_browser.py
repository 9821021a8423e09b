"""One Chromium per test process, a fresh context per test module (tests/conftest.py `session`).

Launching Chromium costs ~1.4 CPU-s (Playwright's driver, the browser, its GPU process and
zygotes); the suite launched one per module that takes `session`. Every module now gets a
`ModuleSession` on the process's one browser: its own context (cookies, storage, cache, routes
and tabs its own), closed with every other context the module opened when the module ends, so the
next module starts from a browser with no context at all. A module that crashes or closes the
browser costs the next one a new launch, nothing else.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from webfovea import Harness
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.observation.sizing import harness_config


class ModuleSession(BrowserSession):
    """A BrowserSession on a browser someone else owns: `close` closes this module's contexts
    and leaves the browser, and with it Playwright's driver, running for the next module."""

    @classmethod
    async def on(cls, shared: BrowserSession) -> ModuleSession:
        assert shared.browser is not None and shared._context_options is not None
        self = cls()
        self._pw = shared._pw
        self.browser = shared.browser
        self.viewport = shared.viewport
        self.offline = shared.offline
        self._context_options = dict(shared._context_options)
        self.context = await self.browser.new_context(**self._context_options)
        return self

    async def close(self) -> None:
        # Every context, not only self.context: a module's own browser.new_context() calls
        # (other viewports, a second user) end with it too.
        if self.browser is not None:
            for context in list(self.browser.contexts):
                try:
                    await context.close()
                except Exception:
                    pass
        self.browser = None
        self.context = None
        self._pw = None


class WorkerBrowser:
    """The process's one launched browser, launched again if a module lost it."""

    def __init__(self) -> None:
        self._shared: BrowserSession | None = None

    async def module_session(self) -> ModuleSession:
        shared = self._shared
        if shared is None or shared.browser is None or not shared.browser.is_connected():
            if shared is not None:
                await shared.close()
            shared = self._shared = await BrowserSession.launch()
            # The launch's own context is nobody's: each module opens its own.
            assert shared.context is not None
            await shared.context.close()
            shared.context = None
        return await ModuleSession.on(shared)

    async def close(self) -> None:
        if self._shared is not None:
            await self._shared.close()
            self._shared = None


@asynccontextmanager
async def harness_on(
    session: BrowserSession,
    url: str,
    *,
    config: HarnessConfig | None = None,
    profile: str = "webfovea",
    **options: Any,
) -> AsyncIterator[Harness]:
    """`Harness.launch(url, **options)` on a fresh tab of the module's browser instead of a
    browser of its own: the same config (`config=`, else `harness_config` as `Harness.launch`
    builds it), the same site guard and navigation. For tests about what the harness does on a
    page, not about launching."""
    if config is None:
        config = harness_config(profile, options.pop("disable", None), **options)
    elif options:
        raise TypeError(f"config= already fixes {sorted(options)}")
    # A context of its own, as Harness.launch's browser had: no cookie of an earlier test on
    # 127.0.0.1 (cookies ignore the port), no route or storage.
    await session.fresh_context()
    page = await session.fresh_page()
    await page.set_viewport_size({"width": config.viewport_width, "height": config.viewport_height})
    h = await Harness.on_page(page, config)
    try:
        await h.guard_site(url)
        await h.goto(url)
        yield h
    finally:
        await h.close()
