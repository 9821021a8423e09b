"""What a page does beside the model's actions, kept within bounds: JavaScript dialogs and downloads.

- Dialogs (alert, confirm, prompt, beforeunload) are dismissed at once — a `confirm()` is
  never accepted on the model's behalf — and their text is kept for the model's next note.
  A storm of them (more than `DIALOG_STORM` between two looks) marks the page unresponsive.
- Downloads are capped in count and size (`HarnessConfig.max_downloads`, `max_download_mb`):
  one past the count, or one growing past the size, is cancelled in the browser (sizes come
  from CDP `Page.downloadProgress`); those within the caps are saved into the task folder.
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
        self._active: dict[str, Download] = {}  # url -> a download still running
        self._guids: dict[str, str] = {}  # CDP download guid -> url
        self._tasks: set[asyncio.Task[Any]] = set()

    async def attach(self, page: Page) -> None:
        if page in self._pages:
            return
        self._pages.add(page)
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        try:
            session = await page.context.new_cdp_session(page)
            session.on("Page.downloadProgress", self._on_progress)
            session.on("Page.downloadWillBegin", self._on_begin)
            await session.send("Page.enable")
        except Exception:
            pass  # sizes unknown: the count cap still holds

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

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_dialog(self, dialog: Dialog) -> None:
        self.dialogs_since_look += 1
        if self.dialogs_since_look <= 3:
            self.events.append(PageEvent("dialog", (dialog.message or "")[:300], dialog.type))
        self._spawn(_dismiss(dialog))

    def _on_begin(self, ev: dict[str, Any]) -> None:
        self._guids[ev.get("guid", "")] = ev.get("url", "")

    def _on_progress(self, ev: dict[str, Any]) -> None:
        if ev.get("state") != "inProgress" or int(ev.get("receivedBytes") or 0) <= self.max_bytes:
            return
        url = self._guids.get(ev.get("guid", ""), "")
        download = self._active.pop(url, None)
        if download is not None:
            self.events.append(
                PageEvent(
                    "download_stopped",
                    download.suggested_filename,
                    f"larger than {self.max_bytes // (1024 * 1024)} MB",
                )
            )
            self._spawn(_cancel_and_delete(download))

    def _on_download(self, download: Download) -> None:
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
        self._active[download.url] = download
        self._spawn(self._finish(download, self.downloads))

    async def _finish(self, download: Download, index: int) -> None:
        """Keep a finished download as `NN-name`, NN its place in the task's order of downloads
        (taken when it began: a later one may begin before this one is saved)."""
        try:
            failure = await download.failure()
        except Exception:
            return
        if self._active.pop(download.url, None) is None or failure is not None:
            return  # cancelled for its size, or failed
        name = _SAFE_NAME.sub("_", download.suggested_filename or "download").strip(" .") or "download"
        try:  # a fast download can finish before its progress shows the size
            size = (await download.path()).stat().st_size
        except Exception:
            size = 0
        if size > self.max_bytes:
            self.events.append(
                PageEvent("download_stopped", name, f"larger than {self.max_bytes // (1024 * 1024)} MB")
            )
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
            for event, handler in (("dialog", self._on_dialog), ("download", self._on_download)):
                try:
                    page.remove_listener(event, handler)
                except Exception:
                    pass


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
