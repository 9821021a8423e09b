"""Passive capture: what the page did during a task, for the organisers, never for the model.

Attached to the page's BrowserContext, it records XHR/fetch requests (URL, method, query and
body parameters, originating page, resource type), top-level navigations and downloads.
Rows go to a temporary SQLite file in the task folder while the task runs (nothing piles up
in memory, and a dead worker's rows survive for the parent to export); `finish()` exports
`capture.json` on every exit path. No response bodies are stored. Credentials are redacted by
`record/redact.py` (headers, query and fragment parameters, form, multipart and JSON bodies).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from webfovea.record.atomic import scrubbed_data, write_json_atomic
from webfovea.record.redact import (  # noqa: F401 - REDACTED, is_secret_name: part of this module's surface
    REDACTED,
    is_secret_name,
    redact_body,
    redact_headers,
    redact_params,
    redact_url,
)
from webfovea.record.schema import CAPTURE_JSON as CAPTURE_JSON  # re-exported: the runner's salvage uses it
from webfovea.record.schema import CaptureFile

if TYPE_CHECKING:  # only the listeners' argument types: record/ needs no browser to be imported
    from playwright.async_api import BrowserContext, Download, Frame, Page, Request

TEMP_DB = ".capture.sqlite"
_REQUEST_TYPES = frozenset({"xhr", "fetch"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,          -- request / navigation / download / block / document
    at REAL NOT NULL,
    data TEXT NOT NULL           -- JSON
);
"""


def describe_request(req: Request) -> dict[str, Any]:
    """One request as a redacted record (no response, no body beyond its parameters)."""
    parts = urlsplit(req.url)
    headers = redact_headers(dict(req.headers))
    body_params: list[list[str]] | None = None
    body_json: Any = None
    body_kind: str | None = None
    try:
        raw = req.post_data
    except Exception:  # binary bodies cannot be decoded as text
        raw = None
    if raw:
        body_kind, content = redact_body(raw, req.headers.get("content-type") or "")
        if body_kind == "json":
            body_json = content
        elif body_kind in ("form", "multipart"):
            body_params = content
    frame_url = page_url = None
    try:
        frame: Frame = req.frame
        frame_url = frame.url
        page_url = frame.page.url
    except Exception:  # service-worker requests have no frame
        pass
    return {
        "url": redact_url(req.url),
        "method": req.method,
        "resource_type": req.resource_type,
        "query_params": redact_params(parse_qsl(parts.query, keep_blank_values=True)),
        "body_kind": body_kind,
        "body_params": body_params,
        "body_json": body_json,
        "headers": headers,
        "page_url": redact_url(page_url) if page_url else None,
        "frame_url": redact_url(frame_url) if frame_url else None,
    }


class Capture:
    """Listens on one BrowserContext for the life of one task."""

    def __init__(self, context: BrowserContext, task_dir: Path) -> None:
        self.context = context
        self.task_dir = Path(task_dir)
        self.task_dir.mkdir(parents=True, exist_ok=True)
        self.db_path = self.task_dir / TEMP_DB
        self.json_path = self.task_dir / CAPTURE_JSON
        self.db: sqlite3.Connection | None = sqlite3.connect(self.db_path, isolation_level=None)
        # Each event is its own transaction, so a killed worker's rows are all readable; without
        # an fsync per insert (0.43 -> 0.04 ms, on the event loop, for every request a page
        # makes). What is written survives the process, not a power cut of the machine.
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.executescript(_SCHEMA)
        self._pages: set[Page] = set()
        self._finished = False
        self._attached = False

    # Handlers never raise: a capture problem must not disturb the task.
    def _add(self, kind: str, data: dict[str, Any]) -> None:
        if self.db is None:
            return
        try:
            self.db.execute(
                "INSERT INTO events(kind, at, data) VALUES (?, ?, ?)",
                (kind, time.time(), json.dumps(scrubbed_data(data))),
            )
        except sqlite3.Error:
            pass

    def _on_request(self, req: Request) -> None:
        if req.resource_type not in _REQUEST_TYPES:
            return
        try:
            self._add("request", describe_request(req))
        except Exception:
            pass

    def _on_nav(self, frame: Frame) -> None:
        try:
            if frame.parent_frame is None:
                self._add("navigation", {"url": redact_url(frame.url)})
        except Exception:
            pass

    def _on_download(self, download: Download) -> None:
        import asyncio

        try:
            record = {"suggested_filename": download.suggested_filename, "url": redact_url(download.url)}
        except Exception:
            return
        asyncio.ensure_future(self._await_download(download, record))

    async def _await_download(self, download: Download, record: dict[str, Any]) -> None:
        try:
            failure = await download.failure()
        except Exception as e:  # browser gone while downloading
            failure = str(e).splitlines()[0]
        record.update({"completed": failure is None, "failure": failure})
        self._add("download", record)

    def record_block(self, blocked: Any) -> None:
        """A top-level navigation the site guard refused (guardrails/site.py `Blocked`)."""
        self._add("block", {"url": redact_url(blocked.url), "reason": blocked.reason, "kind": blocked.kind})

    def record_document(self, entry: dict[str, Any]) -> None:
        """A download the document view opened or refused (webfovea/documents/views.py)."""
        self._add("document", {**entry, "url": redact_url(str(entry.get("url") or ""))})

    def attach_page(self, page: Page) -> None:
        if page in self._pages:
            return
        self._pages.add(page)
        page.on("framenavigated", self._on_nav)
        page.on("download", self._on_download)
        # A pop-up is handed over once it has navigated to its first URL, which no
        # framenavigated event will repeat: record that navigation here.
        if self._attached and page.url not in ("", "about:blank"):
            self._add("navigation", {"url": redact_url(page.url), "new_tab": True})

    def attach(self) -> None:
        self.context.on("request", self._on_request)
        self.context.on("page", self.attach_page)
        for p in self.context.pages:
            self.attach_page(p)
        self._attached = True

    def detach(self) -> None:
        for event, handler in (("request", self._on_request), ("page", self.attach_page)):
            try:
                self.context.remove_listener(event, handler)
            except Exception:
                pass
        for p in self._pages:
            for page_event, page_handler in (
                ("framenavigated", self._on_nav),
                ("download", self._on_download),
            ):
                try:
                    p.remove_listener(page_event, page_handler)
                except Exception:
                    pass
        self._pages.clear()

    async def finish(self) -> Path:
        """Stop listening, export capture.json (always written), remove the temporary DB."""
        if self._finished:
            return self.json_path
        self._finished = True
        self.detach()
        if self.db is not None:
            self.db.close()
            self.db = None
        return export_capture(self.db_path, self.json_path)


async def start_capture(page: Page, task_dir: Path) -> Capture:
    """Begin capturing on the page's context (all its pages, including popups opened later)."""
    cap = Capture(page.context, task_dir)
    cap.attach()
    cap.attach_page(page)
    return cap


def export_capture(db_path: Path, json_path: Path, *, note: str | None = None) -> Path:
    """Turn a capture DB into capture.json and delete the DB. Works on a dead worker's DB too;
    writes an empty capture when there is no DB, so every task folder has one."""
    out = CaptureFile(note=note or None)
    db_path, json_path = Path(db_path), Path(json_path)
    if db_path.exists():
        try:
            db = sqlite3.connect(db_path)
            try:
                for kind, at, data in db.execute("SELECT kind, at, data FROM events ORDER BY seq"):
                    rec = json.loads(data)
                    rec["at"] = at
                    key = f"{kind}s"
                    if getattr(out, key, None) is None:
                        setattr(out, key, [])
                    getattr(out, key).append(rec)
            finally:
                db.close()
        except (sqlite3.Error, ValueError, AttributeError) as e:
            out.error = f"capture database unreadable: {e}"
    write_json_atomic(json_path, out)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    return json_path
