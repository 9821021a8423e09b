"""Adaptive settle wait: return as soon as the page is quiet, bounded.

Quiet = no requests in flight and no DOM mutation for a short window. Requests are
counted from Playwright's page events (all frames); mutations are stamped by a tiny
init script in every frame (read from the main frame, which is what the model sees most).
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Page, Request

from webfovea.config import Component, HarnessConfig

_MUTATION_STAMP = """
(() => {
  if (window.__wfSettle) return;
  window.__wfSettle = {last: Date.now()};
  const mark = () => { window.__wfSettle.last = Date.now(); };
  const start = () => {
    try { new MutationObserver(mark).observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }
    catch (e) {}
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
"""

_LAST_MUTATION_AGE = "(() => window.__wfSettle ? Date.now() - window.__wfSettle.last : 1e9)()"

# Long-lived requests (event streams, websockets, beacons) would keep a page "busy" forever.
_IGNORED_TYPES = {"websocket", "eventsource", "manifest", "ping", "media"}


class SettleWatcher:
    def __init__(self, page: Page, config: HarnessConfig) -> None:
        self.page = page
        self.config = config
        self.pending: set[Request] = set()
        self.last_activity = time.monotonic()
        self.navigations = 0
        self.timed_out = 0
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("framenavigated", self._on_nav)

    async def install(self) -> None:
        await self.page.add_init_script(_MUTATION_STAMP)
        try:
            await self.page.evaluate(_MUTATION_STAMP)
        except Exception:
            pass

    def _on_request(self, req: Request) -> None:
        if req.resource_type in _IGNORED_TYPES:
            return
        self.pending.add(req)
        self.last_activity = time.monotonic()

    def _on_done(self, req: Request) -> None:
        self.pending.discard(req)
        self.last_activity = time.monotonic()

    def _on_nav(self, frame: object) -> None:
        if frame is self.page.main_frame:
            self.navigations += 1
            self.last_activity = time.monotonic()

    async def wait(self, *, navigated: bool = False, nav_mark: int | None = None) -> float:
        """Wait until quiet. Returns the seconds waited. Never raises for page problems."""
        t0 = time.monotonic()
        cfg = self.config
        if not cfg.on(Component.adaptive_settle):
            await asyncio.sleep(cfg.fixed_wait_ms / 1000)
            return time.monotonic() - t0
        if nav_mark is not None and self.navigations > nav_mark:
            navigated = True
        min_s = (1000 if navigated else cfg.settle_min_ms) / 1000
        max_s = cfg.settle_max_ms / 1000 if navigated else min(cfg.settle_max_ms, 3000) / 1000
        quiet_s = cfg.settle_quiet_ms / 1000
        if navigated:
            try:
                await self.page.wait_for_load_state("domcontentloaded", timeout=max_s * 1000)
            except Exception:
                pass
        while True:
            now = time.monotonic()
            elapsed = now - t0
            if elapsed >= max_s:
                self.timed_out += 1
                return elapsed
            if elapsed >= min_s and not self.pending and now - self.last_activity >= quiet_s:
                try:
                    age_ms = await self.page.evaluate(_LAST_MUTATION_AGE)
                except Exception:
                    age_ms = 1e9  # mid-navigation: the next round sees the new document
                    await asyncio.sleep(0.05)
                    continue
                if age_ms >= cfg.settle_quiet_ms:
                    return time.monotonic() - t0
                if nav_mark is not None and self.navigations > nav_mark and not navigated:
                    navigated = True
                    max_s = cfg.settle_max_ms / 1000
                await asyncio.sleep(max(0.01, (cfg.settle_quiet_ms - age_ms) / 1000))
            else:
                await asyncio.sleep(0.015)
