"""What a page does beside the model's actions, kept within bounds: JavaScript dialogs and downloads.

- Dialogs (alert, confirm, prompt, beforeunload) are dismissed at once — a `confirm()` is
  never accepted on the model's behalf — and their text is kept for the model's next note.
  A storm of them (more than `DIALOG_STORM` between two looks) marks the page unresponsive.
- Downloads are capped in count and size (`HarnessConfig.max_downloads`, `max_download_mb`),
  per download and for every page of the context, pop-ups included (the context's `download`
  event, which no page opened later can miss). The size is held from the first byte: a download
  whose response declares more is refused at its headers (CDP Fetch, response stage), before
  the browser reads its body; one that grows past the cap — read from its partial file and CDP
  `Page.downloadProgress` — is cancelled in the browser. Each is tracked by its own id, never by
  its URL (two downloads of one URL are two downloads). Those within the caps are saved into
  the task folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Dialog, Download, Page

from webfovea.config import HarnessConfig
from webfovea.guardrails.download_sizes import SizeWatch, download_id

DIALOG_STORM = 20
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


@dataclass
class PageEvent:
    kind: str  # "dialog" | "download_saved" | "download_stopped"
    text: str  # the dialog's message, or the file name
    detail: str = ""  # dialog type; why a download was stopped
    path: str = ""  # a saved download: where its file is (the task folder, else the browser's copy)
    url: str = ""  # a saved download: where it came from


class PageWatch:
    """Dialogs and downloads of every page it is attached to (one per task)."""

    def __init__(self, config: HarnessConfig, downloads_dir: Path | None = None) -> None:
        self.max_downloads = config.max_downloads
        self.max_bytes = int(config.max_download_mb * 1024 * 1024)
        self.downloads_dir = downloads_dir
        self.events: list[PageEvent] = []
        self.dialogs_since_look = 0
        self.downloads = 0
        # Every download kept, in the order it was saved: {file, path, bytes, url} (result.json).
        self.saved: list[dict[str, Any]] = []
        self._pages: set[Page] = set()
        self._context: Any = None
        self._active: dict[str, Download] = {}  # download id (CDP guid) -> a download still running
        self._tasks: set[asyncio.Task[Any]] = set()
        self._attaching: dict[Page, asyncio.Task[Any]] = {}
        self.sizes = SizeWatch(self.max_bytes, self._too_big, self._refused_at_headers)

    def adopt(self, page: Page) -> None:
        """Listen to a new page's dialogs at once (its downloads are the context's), then set up
        its size checks — called from the context's `page` event, before the page runs on."""
        if page in self._pages:
            return
        self._pages.add(page)
        page.on("dialog", self._on_dialog)
        if self._context is None:
            self._context = page.context
            page.context.on("download", self._on_download)
        self._attaching[page] = self._spawn(self.sizes.attach(page))

    async def attach(self, page: Page) -> None:
        """`adopt`, then wait until the page's size checks are on."""
        self.adopt(page)
        pending = self._attaching.get(page)
        if pending is not None and not pending.done():
            await asyncio.wait({pending}, timeout=5.0)

    def take(self) -> list[PageEvent]:
        """Events since the last look (the model's next note)."""
        out, self.events = self.events, []
        self.dialogs_since_look = 0
        return out

    async def drain(self, timeout: float) -> None:
        """Wait up to `timeout` s for the downloads under way to be saved or stopped (the
        document view opens a download in the same step that caused it)."""
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    @property
    def storm(self) -> bool:
        return self.dialogs_since_look > DIALOG_STORM

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _on_dialog(self, dialog: Dialog) -> None:
        self.dialogs_since_look += 1
        if self.dialogs_since_look <= 3:
            self.events.append(PageEvent("dialog", (dialog.message or "")[:300], dialog.type))
        self._spawn(_dismiss(dialog))

    def _too_big(self, key: str, why: str) -> None:
        """A download grew (or said it would grow) past the cap: cancel it and say so."""
        download = self._active.pop(key, None)
        if download is not None:
            self.events.append(PageEvent("download_stopped", download.suggested_filename, why))
            self._spawn(_cancel_and_delete(download))

    def _refused_at_headers(self, name: str, why: str) -> None:
        self.events.append(PageEvent("download_stopped", name, why))

    def _on_download(self, download: Download) -> None:
        # One refused at its headers may still be reported here, failed at once: it is then
        # followed like any other and ends silently (told already); never matched by its URL.
        self.downloads += 1
        if self.downloads > self.max_downloads:
            self.events.append(
                PageEvent(
                    "download_stopped",
                    download.suggested_filename,
                    f"more than {self.max_downloads} downloads in this task",
                )
            )
            self._spawn(_cancel_and_delete(download))
            return
        key = download_id(download)
        self._active[key] = download
        self._spawn(self.sizes.follow(key, download))
        self._spawn(self._finish(download, key, self.downloads))

    async def _finish(self, download: Download, key: str, index: int) -> None:
        """Keep a finished download as `NN-name`, NN its place in the task's order of downloads
        (taken when it began: a later one may begin before this one is saved)."""
        try:
            failure = await download.failure()
        except Exception:
            return
        if self._active.pop(key, None) is None or failure is not None:
            return  # cancelled for its size, or failed
        name = _SAFE_NAME.sub("_", download.suggested_filename or "download").strip(" .") or "download"
        try:  # a fast download can finish before its progress shows the size
            size = (await download.path()).stat().st_size
        except Exception:
            size = 0
        if size > self.max_bytes:
            self.events.append(PageEvent("download_stopped", name, self.sizes.why))
            await _delete(download)
            return
        kept = ""
        if self.downloads_dir is not None:
            try:
                self.downloads_dir.mkdir(parents=True, exist_ok=True)
                target = self.downloads_dir / f"{index:02d}-{name}"
                await download.save_as(target)
                kept = str(target)
            except Exception:
                return
        else:
            try:
                kept = str(await download.path())
            except Exception:
                pass
        with contextlib.suppress(OSError):
            size = Path(kept).stat().st_size if kept else size
        self.saved.append({"file": name, "path": kept, "bytes": size, "url": download.url})
        self.events.append(PageEvent("download_saved", name, path=kept, url=download.url))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for page in self._pages:
            with contextlib.suppress(Exception):
                page.remove_listener("dialog", self._on_dialog)
        if self._context is not None:
            with contextlib.suppress(Exception):
                self._context.remove_listener("download", self._on_download)
        await self.sizes.close()


async def _dismiss(dialog: Dialog) -> None:
    try:
        await dialog.dismiss()
    except Exception:
        pass


async def _cancel_and_delete(download: Download) -> None:
    """Stop it in the browser and remove whatever of it was written."""
    try:
        await download.cancel()
    except Exception:
        pass
    await _delete(download)


async def _delete(download: Download) -> None:
    try:
        await download.delete()
    except Exception:
        pass
