"""The harness's hold on its pages: which tab is observed, the site guard, dialogs and
downloads beside an action, whether the page still answers, and the harness-side
navigations (the start page, the verify gate's fresh view). `Harness` inherits it; the
round trip itself stays in harness/core.py."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Page

from webfovea.browser.session import BrowserLost, is_browser_lost
from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import Component, HarnessConfig
from webfovea.documents.render import size_text
from webfovea.documents.views import DocumentViews
from webfovea.execution.executor import Executor
from webfovea.execution.settle import Epoch, SettleWatcher
from webfovea.feedback import notes
from webfovea.guardrails.pagewatch import PageEvent, PageWatch
from webfovea.guardrails.site import Blocked, SiteGuard, SitePolicy
from webfovea.guardrails.verify import VerifyGate
from webfovea.observation.capture import Screen, Shot

T = TypeVar("T")

DOWNLOAD_WAIT_S = 10.0  # documents on: how long a step waits for its downloads to be saved


class PageKeeper:
    """Mixed into Harness: everything here acts on `self._page` and the guards around it."""

    config: HarnessConfig
    _page: Page | None
    watch: PageWatch
    guard: SiteGuard | None
    notes: notes.Notes
    screen: Screen
    settle: SettleWatcher
    executor: Executor
    verify: VerifyGate
    _known_pages: set[Page]
    _next: tuple[Shot, Epoch, float] | None
    documents: DocumentViews

    def _on_new_page(self, page: Page) -> None:
        self.watch.adopt(page)  # at once: its dialogs and downloads are heard from the start

    async def release(self) -> None:
        """Take the harness's hooks off a browser it does not own (the runner reuses one browser
        for many tasks: the next task must not inherit this task's site guard)."""
        if self.guard is not None:
            await self.guard.uninstall()
            self.guard = None
        await self.watch.close()
        await self.documents.uninstall()
        if self._page is not None:
            try:
                self._page.context.remove_listener("page", self._on_new_page)
            except Exception:
                pass

    def keep_downloads(self, folder: str | os.PathLike[str]) -> None:
        """Save the downloads the page makes (within the caps) into `folder`."""
        self.watch.downloads_dir = Path(folder)

    async def ensure_alive(self) -> None:
        """PageUnresponsive when the page's main thread has not answered for `unresponsive_s`
        (an endless script), or the page keeps opening dialogs."""
        limit = self.config.unresponsive_s
        if self.watch.storm or not await worlds(self.page).alive(timeout=limit):
            raise PageUnresponsive(notes.page_unresponsive(limit, dialogs=self.watch.dialogs_since_look > 3))

    async def _bounded(self, coro: Awaitable[T]) -> T:
        """Run one action; every `unresponsive_s` it is still running, check the page still answers."""
        task = asyncio.ensure_future(coro)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self.config.unresponsive_s)
                if done:
                    return task.result()
                await self.ensure_alive()
        finally:
            if not task.done():
                task.cancel()
                try:
                    await asyncio.wait_for(task, 5)
                except BaseException:  # noqa: BLE001 - the action is abandoned either way
                    pass

    async def guard_site(
        self,
        start_url: str,
        *,
        allow_origins: list[str] | None = None,
        on_block: Callable[[Blocked], None] | None = None,
    ) -> SiteGuard | None:
        """Keep top-level navigations and new tabs on the site of `start_url` (config `site_guard`,
        `allow_domains`; loopback: its origin plus `allow_origins`). Enforced in the browser."""
        if not self.config.site_guard or self.guard is not None:
            return self.guard
        policy = SitePolicy(start_url, list(self.config.allow_domains), list(allow_origins or []))
        self.guard = SiteGuard(policy, on_block)
        await self.guard.install(self.page.context)
        return self.guard

    async def _switch_to(self, page: Page) -> None:
        """Observe and act on another tab from now on; the task's budgets carry over."""
        self._page = page
        await self.watch.attach(page)
        await self.screen.detach()
        self.settle = SettleWatcher(page, self.config)
        await self.settle.install()
        self.screen = Screen(page, self.config)
        self.executor.page, self.executor.settle, self.executor.capture = (
            page,
            self.settle,
            self.screen.capture,
        )
        self._next = None  # a capture kept for reuse showed the other tab

    async def show_tab(self, page: Page) -> None:
        """Observe and act on `page`, a tab of this harness's browser context, from now on (a
        client chose it: MCP's tab tools); the next step observes it afresh."""
        if page.context is not self.page.context:
            raise ValueError("that tab belongs to another browser context")
        self._known_pages.add(page)
        if page is not self._page:
            await self._switch_to(page)
        self._next = None

    async def _follow_tabs(self) -> list[str]:
        """A tab the page opened becomes the observed page; a closed one gives way to the last open."""
        said: list[str] = []
        context = self.page.context
        fresh = [p for p in context.pages if p not in self._known_pages and not p.is_closed()]
        self._known_pages.update(fresh)
        for page in fresh:
            try:
                await page.wait_for_load_state("domcontentloaded", timeout=3000)
            except Exception:
                pass
            if page.url in ("", "about:blank"):
                await _close_quietly(page)  # its navigation was refused, or it never had one
                continue
            await self._switch_to(page)
            said.append(notes.new_tab(page.url))
        if self.page.is_closed():
            open_pages = [p for p in context.pages if not p.is_closed()]
            if open_pages:
                await self._switch_to(open_pages[-1])
                said.append(notes.tab_closed(open_pages[-1].url))
        return said

    async def _events(self) -> str:
        """What happened beside the action: dialogs, downloads, blocked navigations, tabs."""
        if self.config.on(Component.documents):
            await self.watch.drain(DOWNLOAD_WAIT_S)
        said = [await self._event_note(e) for e in self.watch.take()]
        said += [notes.blocked_navigation(b.url, b.reason) for b in self._unread_blocks()]
        said += await self._follow_tabs()
        return " ".join(self.notes.refusal(t) for t in said if t).strip()

    async def _event_note(self, event: PageEvent) -> str:
        if event.kind == "download_saved" and event.path and self.config.on(Component.documents):
            return await self._open_document(event)
        return _page_note(event)

    async def _open_document(self, event: PageEvent) -> str:
        """A saved download that is a document opens in this tab (webfovea/documents/)."""
        ocr = self.config.on(Component.ocr)
        opened = await self.documents.open(self.page, Path(event.path), event.text, event.url, ocr=ocr)
        if not opened.document:
            return _page_note(event)
        if opened.url is None or opened.doc is None:
            return notes.document_refused(event.text, opened.reason)
        mark = self.settle.navigations
        self._next = None
        try:
            await self.page.goto(opened.url, wait_until="domcontentloaded", timeout=30_000)
        except Exception as e:
            if (lost := self._lost(e)) is not None:
                raise lost from None
            return notes.document_refused(
                event.text, f"its view did not open ({str(e).splitlines()[0][:120]})"
            )
        await self.settle.wait(navigated=True, nav_mark=mark)
        doc = opened.doc
        return notes.document_opened(
            event.text, doc.label, doc.extent(), size_text(doc.size), doc.scanned(), doc.ocr_done()
        )

    def _unread_blocks(self) -> list[Blocked]:
        return self.guard.take_unread() if self.guard is not None else []

    @property
    def page(self) -> Page:
        assert self._page is not None, "the harness is not started: use `async with Harness.launch(...)`"
        return self._page

    def _lost(self, e: BaseException) -> BrowserLost | None:
        if is_browser_lost(e) or self.page.is_closed():
            return BrowserLost(str(e).splitlines()[0] if str(e) else type(e).__name__)
        return None

    async def goto(self, url: str) -> None:
        """Open the task's start page. Harness-side only: the model has no way to navigate by URL.

        Only http(s) pages: `file:`, `data:`, `view-source:` and the like are refused."""
        if urlsplit(url).scheme not in ("http", "https"):
            raise ValueError(f"only http(s) start pages are opened, not {url[:60]!r}")
        mark = self.settle.navigations
        self._next = None
        try:
            await self.page.goto(url, wait_until="domcontentloaded", timeout=30_000)
        except Exception as e:
            if is_browser_lost(e):
                raise BrowserLost(str(e).splitlines()[0]) from None
            raise
        await self.settle.wait(navigated=True, nav_mark=mark)

    async def _show_real_state(self) -> None:
        """Open the page that shows the real state (or reload this one) for the verify gate.

        A fresh load, never the page's own in-memory view: a client-side app that showed a
        "Saved" toast must render again from what its server holds."""
        if self.verify.url:
            await self.goto(self.verify.url)
            return
        mark = self.settle.navigations
        self._next = None
        try:
            await self.page.reload(wait_until="domcontentloaded", timeout=30_000)
        except Exception as e:
            if (lost := self._lost(e)) is not None:
                raise lost from None
            raise
        await self.settle.wait(navigated=True, nav_mark=mark)


async def _close_quietly(page: Page) -> None:
    try:
        await asyncio.wait_for(page.close(), 5)
    except Exception:
        pass


def _page_note(event: PageEvent) -> str:
    if event.kind == "dialog":
        return notes.dialog_dismissed(event.detail, event.text)
    if event.kind == "download_saved":
        return notes.download_saved(event.text)
    return notes.download_stopped(event.text, event.detail)
