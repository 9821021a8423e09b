"""The document views of one task, served by the browser itself on the site's own origin.

A document is shown at `<origin>/__webfovea/doc/<n>/` (its page images beside it), where
`<origin>` is the page that yielded it, so the site guard lets the tab go there and `back`
returns to that page. A Playwright route on the context answers those URLs from memory: the
site never sees them, and the view's Content-Security-Policy forbids every script.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from playwright.async_api import BrowserContext, Page, Route

from webfovea.documents import limits, sandbox
from webfovea.documents.document import Document

PREFIX = "/__webfovea/doc/"
CONVERT_TIMEOUT_S = sandbox.TIMEOUT_S
PRERENDER = 30  # pages of a PDF the converting child renders next (the rest when first shown)
RENDER_BATCH = 4  # pages one later rendering child renders (a page asked for and the ones after it)
# The views of each browser context, so find_text/read_text can search a whole document.
_VIEWS: weakref.WeakKeyDictionary[BrowserContext, DocumentViews] = weakref.WeakKeyDictionary()


def _ocr_pages(on: bool) -> int:
    """Scanned pages the converting child renders first, for OCR (0: no OCR here)."""
    from webfovea.documents import ocr

    return ocr.MAX_OCR_PAGES if on and ocr.available() else 0


def document_at(page: Page) -> tuple[Document, dict[str, str]] | None:
    """The document whose view `page` shows, and the view's query (sheet, page of rows,
    filter); None when the page is not a document view."""
    parts = urlsplit(page.url)
    if not parts.path.startswith(PREFIX):
        return None
    n, _, asset = parts.path[len(PREFIX) :].partition("/")
    views = _VIEWS.get(page.context)
    doc = views._docs.get(int(n)) if views is not None and n.isdigit() and not asset else None
    return (doc, dict(parse_qsl(parts.query))) if doc is not None else None


_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'"


@dataclass
class Opened:
    """What became of one document: the view's URL (None: refused) and the record entry."""

    url: str | None
    doc: Document | None
    reason: str = ""
    document: bool = True  # False: not a document at all (it stays a plain download)
    record: dict[str, Any] = field(default_factory=dict)


class DocumentViews:
    def __init__(self) -> None:
        self._docs: dict[int, Document] = {}
        self._context: BrowserContext | None = None
        self._ahead: asyncio.Future[Any] | None = None
        self._rendering = asyncio.Lock()  # one rendering child at a time
        self._coming: dict[int, asyncio.Event] = {}  # pages of `_latest` its converting child will send
        self._latest: Document | None = None
        self.opened = 0  # documents shown so far (the harness reads it to word a step's note)
        self.on_record: Callable[[dict[str, Any]], None] | None = None  # capture.json's `documents`

    @staticmethod
    def _ours(url: str) -> bool:
        return urlsplit(url).path.startswith(PREFIX)

    async def _install(self, context: BrowserContext) -> None:
        if self._context is None:
            self._context = context
            _VIEWS[context] = self
            await context.route(self._ours, self._route)

    async def uninstall(self) -> None:
        if self._ahead is not None:
            self._ahead.cancel()  # its child is killed (sandbox.pages_of)
        if self._context is not None:
            try:
                await self._context.unroute(self._ours, self._route)
            except Exception:
                pass
            self._context = None

    async def _route(self, route: Route) -> None:
        parts = urlsplit(route.request.url)
        n, _, asset = parts.path[len(PREFIX) :].partition("/")
        doc = self._docs.get(int(n)) if n.isdigit() else None
        try:
            if doc is None:
                await route.fulfill(status=404, content_type="text/plain", body="no such document view")
            elif asset:
                body = await self._asset(doc, asset)
                await route.fulfill(status=200 if body else 404, content_type="image/png", body=body or b"")
            else:
                html = await asyncio.to_thread(doc.html, dict(parse_qsl(parts.query)))
                headers = {"Content-Security-Policy": _CSP, "Cache-Control": "no-store"}
                await route.fulfill(
                    status=200, content_type="text/html; charset=utf-8", headers=headers, body=html
                )
        except Exception:
            pass  # the page went away while it was answered

    async def open(self, page: Page, path: Path, name: str, source_url: str, *, ocr: bool = False) -> Opened:
        """Convert the saved file `path` and register its view (the caller navigates to it)."""
        t0 = time.monotonic()
        record: dict[str, Any] = {"name": name, "url": source_url, "file": path.name}
        try:
            data = await asyncio.to_thread(path.read_bytes)
            doc, record["peak_mb"], ahead = await sandbox.convert_ahead(
                data, name, timeout=CONVERT_TIMEOUT_S, render=PRERENDER, ocr=_ocr_pages(ocr)
            )
        except limits.NotADocument as e:
            return Opened(None, None, str(e), document=False)
        except limits.Refused as e:
            if e.peak_mb is not None:
                record["peak_mb"] = e.peak_mb
            return self._refused(record, str(e))
        except Exception as e:  # the child could not be started, or OCR failed
            return self._refused(record, f"it could not be read ({type(e).__name__}: {str(e)[:120]})")
        if ocr and doc.pdf is not None and (scanned := doc.pdf.to_ocr()):
            await self._ocr(doc, scanned, ahead)
        n = len(self._docs) + 1
        self._docs[n] = doc
        if self._ahead is not None:
            self._ahead.cancel()  # the previous document's pages ahead: this one is shown now
        self._latest = doc
        if ahead is not None and doc.pdf is not None:  # the child renders ahead of the scrolling
            self._coming = {i: asyncio.Event() for i in range(min(len(doc.pdf.pages), PRERENDER))}
            self._ahead = asyncio.ensure_future(self._receive(doc, ahead))
        await self._install(page.context)
        base = page.url if urlsplit(page.url).scheme in ("http", "https") else source_url
        p = urlsplit(base)
        url = f"{p.scheme}://{p.netloc}{PREFIX}{n}/"
        view = path.with_name(path.name + ".view.html")
        try:
            await asyncio.to_thread(lambda: view.write_text(doc.html(), "utf-8"))
            record["view"] = view.name
        except OSError:
            pass
        record.update(
            kind=doc.kind,
            extent=doc.extent(),
            bytes=doc.size,
            opened=True,
            view_url=url,
            scanned_pages=doc.scanned(),
            ocr_pages=doc.ocr_done(),
            seconds=round(time.monotonic() - t0, 3),
        )
        self._tell(record)
        self.opened += 1
        return Opened(url, doc, record=record)

    @staticmethod
    async def _ocr(doc: Document, scanned: list[int], ahead: sandbox.Job | None) -> None:
        """Scanned pages get a text layer from Tesseract (in this process: a runner's worker
        sends it to its driver) on the renderings the converting child sends first; without
        them they stay images."""
        assert doc.pdf is not None
        wanted, deadline = set(scanned), time.monotonic() + CONVERT_TIMEOUT_S
        try:
            while ahead is not None and wanted:
                ran = await ahead.frame(max(0.01, deadline - time.monotonic()))
                if ran is None:
                    break
                page = ran.header.get("page")
                if isinstance(page, int) and 0 <= page < len(doc.pdf.pages) and len(ran.blobs) == 1:
                    doc.pdf.keep_png(page, ran.blobs[0])
                    wanted.discard(page)
        except limits.Refused:
            pass
        pngs = {i: doc.pdf.png(i) for i in scanned if doc.pdf.has_png(i)}
        await asyncio.to_thread(doc.pdf.apply_ocr, pngs)

    async def _receive(self, doc: Document, job: sandbox.Job) -> None:
        """Keep the pages the converting child renders ahead; when it ends (done, failed, past
        its deadline), whoever waits for a page it did not send renders it in a child of its own."""
        assert doc.pdf is not None
        coming = self._coming
        try:
            async for i, png in sandbox.pages_of(job):
                doc.pdf.keep_png(i, png)
                if i in coming:
                    coming.pop(i).set()
        except limits.Refused:
            pass
        finally:
            for event in coming.values():
                event.set()
            coming.clear()

    async def _asset(self, doc: Document, name: str) -> bytes | None:
        """A page image of the view (`page-N.png`), rendered in a child when first asked."""
        if doc.pdf is None or not (name.startswith("page-") and name.endswith(".png")):
            return None
        try:
            index = int(name[5:-4]) - 1
        except ValueError:
            return None
        return await self._png(doc, index) if 0 <= index < len(doc.pdf.pages) else None

    async def _png(self, doc: Document, index: int) -> bytes | None:
        pdf = doc.pdf
        assert pdf is not None
        if not pdf.has_png(index) and doc is self._latest and index in self._coming:
            await self._coming[index].wait()  # the converting child is on it
        if not pdf.has_png(index):
            async with self._rendering:
                batch = [
                    i for i in range(index, min(index + RENDER_BATCH, len(pdf.pages))) if not pdf.has_png(i)
                ]
                if batch:
                    try:
                        pngs = await sandbox.render(pdf.data, batch, timeout=CONVERT_TIMEOUT_S)
                    except limits.Refused:
                        return None  # the page shows a missing image; its text layer stays
                    for i, png in pngs.items():
                        pdf.keep_png(i, png)
        return pdf.png(index) if pdf.has_png(index) else None

    def _refused(self, record: dict[str, Any], reason: str) -> Opened:
        record.update(opened=False, refused=reason)
        self._tell(record)
        return Opened(None, None, reason, record=record)

    def _tell(self, record: dict[str, Any]) -> None:
        if self.on_record is not None:
            try:
                self.on_record(dict(record))
            except Exception:
                pass
