"""A download's size, held to the cap from its first byte (guardrails/pagewatch.py uses it).

Three checks, each for what the one before cannot see:
- at the response's headers (CDP Fetch, response stage, on every page's own session): a
  response that will be a download (an attachment, or a type a page is not made of) and declares
  more than the cap is failed before the browser reads a byte of its body;
- while it runs, by its id: its partial file on disk (`<id>.crdownload`, read every
  `POLL_S`), and CDP `Page.downloadProgress` where the page's session saw it begin — a pop-up
  that downloads at once may start before its session is attached, its file never does;
- after it ends (pagewatch.py): a finished file over the cap is deleted, never kept.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from playwright.async_api import CDPSession, Download, Page

POLL_S = 0.02
DETACH_WAIT_S = 1.0
# What a tab shows rather than saves: a response of another type that is a Document is a download.
_SHOWN = ("text/html", "application/xhtml+xml", "text/plain", "image/", "application/xml", "text/xml")


def download_id(download: Download) -> str:
    """The browser's id of a download (CDP's guid, the name Playwright's copy is written under);
    the object's own identity when Playwright does not say where it writes."""
    path = _artifact_path(download)
    return path.name if path is not None else f"py-{id(download)}"


def _artifact_path(download: Download) -> Path | None:
    # Playwright names its copy of a download by the browser's guid; the path is in the
    # artifact's initializer (no public API gives it before the download ends).
    try:
        return Path(download._impl_obj._artifact._initializer["absolutePath"])
    except Exception:
        return None


class SizeWatch:
    def __init__(
        self,
        max_bytes: int,
        too_big: Callable[[str, str], None],
        refused: Callable[[str, str], None],
    ) -> None:
        self.max_bytes = max_bytes
        self._too_big = too_big  # (download id, why): cancel it and tell the model
        self._refused = refused  # (file name, why): a download refused at its headers
        self._sessions: list[CDPSession] = []

    @property
    def why(self) -> str:
        return f"larger than {self.max_bytes / (1024 * 1024):g} MB"

    async def attach(self, page: Page) -> None:
        try:
            session = await page.context.new_cdp_session(page)
            self._sessions.append(session)
            session.on("Page.downloadProgress", self._on_progress)
            session.on("Fetch.requestPaused", lambda ev: asyncio.ensure_future(self._paused(session, ev)))
            await session.send("Page.enable")
            await session.send(
                "Fetch.enable",
                {"patterns": [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Response"}]},
            )
        except Exception:
            pass  # the page closed while attaching: its downloads are still followed on disk

    def _on_progress(self, ev: dict[str, Any]) -> None:
        if ev.get("state") != "inProgress":
            return
        if max(int(ev.get("receivedBytes") or 0), int(ev.get("totalBytes") or 0)) > self.max_bytes:
            self._too_big(str(ev.get("guid", "")), self.why)

    async def _paused(self, session: CDPSession, ev: dict[str, Any]) -> None:
        rid = ev["requestId"]
        try:
            headers = {h["name"].lower(): h["value"] for h in ev.get("responseHeaders") or []}
            declared = int(headers.get("content-length") or 0)
            if declared > self.max_bytes and _is_download(headers):
                self._refused(_file_name(headers, ev["request"]["url"]), self.why)
                await session.send("Fetch.failRequest", {"requestId": rid, "errorReason": "BlockedByClient"})
                return
        except Exception:
            pass
        with contextlib.suppress(Exception):  # a paused request is always let go
            await session.send("Fetch.continueRequest", {"requestId": rid})

    async def follow(self, key: str, download: Download) -> None:
        """Read the download's partial file until it ends; past the cap, stop it."""
        path = _artifact_path(download)
        if path is None:
            return
        ended = asyncio.ensure_future(download.failure())
        try:
            while not ended.done():
                for f in (path.with_name(path.name + ".crdownload"), path):
                    with contextlib.suppress(OSError):
                        if f.stat().st_size > self.max_bytes:
                            self._too_big(key, self.why)
                            return
                await asyncio.wait({ended}, timeout=POLL_S)
        finally:
            if not ended.done():
                ended.cancel()
            with contextlib.suppress(BaseException):
                await ended

    async def close(self) -> None:
        # A renderer stuck in an endless script never acknowledges a detach: give up after a second.
        steps = [asyncio.ensure_future(s.detach()) for s in self._sessions]
        self._sessions.clear()
        if steps:
            done, pending = await asyncio.wait(steps, timeout=DETACH_WAIT_S)
            for task in pending:
                task.cancel()
            for task in done:
                task.exception()


def _is_download(headers: dict[str, str]) -> bool:
    if headers.get("content-disposition", "").strip().lower().startswith("attachment"):
        return True
    ctype = headers.get("content-type", "").split(";")[0].strip().lower()
    return bool(ctype) and not ctype.startswith(_SHOWN)


def _file_name(headers: dict[str, str], url: str) -> str:
    disposition = headers.get("content-disposition", "")
    for part in disposition.split(";"):
        key, _, value = part.strip().partition("=")
        if key.lower() in ("filename", "filename*") and value:
            return unquote(value.split("''")[-1].strip('"'))
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1]) or "download"
