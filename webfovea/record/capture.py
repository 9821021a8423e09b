"""Passive capture: what the page did during a task, for the organisers, never for the model.

Attached to the page's BrowserContext, it records XHR/fetch requests (URL, method, query and
body parameters, originating page, resource type), top-level navigations and downloads.
Rows go to a temporary SQLite file in the task folder while the task runs (nothing piles up
in memory, and a dead worker's rows survive for the parent to export); `finish()` exports
`capture.json` on every exit path. No response bodies are stored. Credentials are redacted:
Authorization/Cookie-like headers are dropped, and parameters whose name looks like a secret
keep their name but get the value `[redacted]`.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote_plus, urlsplit, urlunsplit

from playwright.async_api import BrowserContext, Download, Frame, Page, Request

TEMP_DB = ".capture.sqlite"
CAPTURE_JSON = "capture.json"
REDACTED = "[redacted]"
_REQUEST_TYPES = frozenset({"xhr", "fetch"})
_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token", "x-csrf-token"}
)
# Whole words (after splitting snake/kebab/camel case) that mark a parameter as a secret.
# Word-level so that `keyword` or `monkey` are not redacted but `api_key`, `apiKey`, `sessionId` are.
_SECRET_WORDS = frozenset(
    {
        "token", "key", "apikey", "secret", "password", "passwd", "pwd", "pass", "auth", "authorization",
        "session", "sessionid", "sid", "sig", "signature", "credential", "credentials", "jwt", "bearer",
        "otp", "cookie", "csrf", "xsrf", "accesstoken", "refreshtoken", "idtoken", "clientsecret",
    }
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,          -- request / navigation / download
    at REAL NOT NULL,
    data TEXT NOT NULL           -- JSON
);
"""


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def is_secret_name(name: str) -> bool:
    """Does a parameter or header name look like it carries a credential?"""
    words = _words(name)
    if not words:
        return False
    joined = "".join(words)
    return joined in _SECRET_WORDS or any(w in _SECRET_WORDS for w in words)


def redact_params(pairs: list[tuple[str, str]]) -> list[list[str]]:
    return [[k, REDACTED if is_secret_name(k) else v] for k, v in pairs]


def _redact_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: (REDACTED if is_secret_name(str(k)) else _redact_json(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_json(v) for v in value]
    return value


def redact_url(url: str) -> str:
    """The URL with secret query values replaced and any user:password@ removed."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    # Rewrite segment by segment so the rest of the URL stays byte-for-byte as the page sent it.
    segments = []
    for seg in re.split(r"([&;])", parts.query):
        name = unquote_plus(seg.split("=", 1)[0])
        segments.append(f"{seg.split('=', 1)[0]}={REDACTED}" if seg not in "&;" and is_secret_name(name) else seg)
    return urlunsplit((parts.scheme, netloc, parts.path, "".join(segments), parts.fragment))


def describe_request(req: Request) -> dict[str, Any]:
    """One request as a redacted record (no response, no body beyond its parameters)."""
    parts = urlsplit(req.url)
    headers = {k: v for k, v in req.headers.items() if k.lower() not in _SECRET_HEADERS and not is_secret_name(k)}
    body_params: list[list[str]] | None = None
    body_json: Any = None
    body_kind: str | None = None
    try:
        raw = req.post_data
    except Exception:  # binary bodies cannot be decoded as text
        raw = None
    if raw:
        ctype = (req.headers.get("content-type") or "").lower()
        stripped = raw.lstrip()
        if "json" in ctype or stripped.startswith(("{", "[")):
            try:
                body_json = _redact_json(json.loads(raw))
                body_kind = "json"
            except ValueError:
                body_kind = "text"
        if body_kind is None and ("x-www-form-urlencoded" in ctype or "=" in raw):
            body_params = redact_params(parse_qsl(raw, keep_blank_values=True))
            body_kind = "form"
        if body_kind is None:
            body_kind = "multipart" if "multipart" in ctype else "text"
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
                "INSERT INTO events(kind, at, data) VALUES (?, ?, ?)", (kind, time.time(), json.dumps(data))
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
            for event, handler in (("framenavigated", self._on_nav), ("download", self._on_download)):
                try:
                    p.remove_listener(event, handler)
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
    out: dict[str, Any] = {"requests": [], "navigations": [], "downloads": []}  # + "blocks" when any
    if note:
        out["note"] = note
    db_path, json_path = Path(db_path), Path(json_path)
    if db_path.exists():
        try:
            db = sqlite3.connect(db_path)
            try:
                for kind, at, data in db.execute("SELECT kind, at, data FROM events ORDER BY seq"):
                    rec = json.loads(data)
                    rec["at"] = at
                    out.setdefault(f"{kind}s", []).append(rec)
            finally:
                db.close()
        except (sqlite3.Error, ValueError, KeyError) as e:
            out["error"] = f"capture database unreadable: {e}"
    tmp = json_path.with_name(f".{json_path.name}.tmp")
    tmp.write_text(json.dumps(out, indent=2, ensure_ascii=False))
    tmp.replace(json_path)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    return json_path
