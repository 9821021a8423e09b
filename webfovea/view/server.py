"""`webfovea view RUN...`: the viewer's HTTP server, on the standard library's ThreadingHTTPServer.

One person on their own machine, a handful of requests a second: a threaded standard-library
server is enough and adds no dependency (docs/view.md says why not a framework). It listens on
127.0.0.1 only and answers only requests whose Host is that address (a page on another site
cannot reach it by DNS rebinding); a form post must also carry the page's token and, when the
browser sends one, this server's Origin, so another site cannot forge a label. Files are served
only from inside the run folders, through `record/confined.py`, and only images, streamed in
chunks; a task is named by its folder among the run's own, never by a path from the URL.
"""

from __future__ import annotations

import secrets
import shutil
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from webfovea.judge.labels import Label, LabelFileError, append_label
from webfovea.judge.manuals.reviews import Review, ReviewFileError, append_review
from webfovea.record.confined import UnsafeFile, check_image
from webfovea.view import pages, review_pages
from webfovea.view.index import VERIFY, RunIndex
from webfovea.view.script import VIEW_JS

MAX_FORM_BYTES = 1024 * 1024
CHUNK = 256 * 1024
CSP = "default-src 'none'; img-src 'self'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Viewer:
    """The runs being viewed and what every request needs: the token, the write lock."""

    def __init__(self, runs: list[Path]) -> None:
        self.runs = [RunIndex(r) for r in runs]
        self.token = secrets.token_urlsafe(24)
        self.write_lock = threading.Lock()  # one append at a time per viewer

    def run(self, i: str) -> tuple[int, RunIndex]:
        if not i.isdigit() or int(i) >= len(self.runs):
            raise HttpError(404, f"no run {i!r}")
        return int(i), self.runs[int(i)]


def _task_row(run: RunIndex, folder: str) -> Any:
    if folder not in set(run.folders):  # the folder is one of the run's, never a path
        raise HttpError(404, f"no task folder {folder!r} in {run.name}")
    return run.row(folder)


class Handler(BaseHTTPRequestHandler):
    server_version = "webfovea-view"
    viewer: Viewer  # set on the class made by `make_server`
    allowed_hosts: frozenset[str]

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal prints the URL
        pass

    # -- plumbing ---------------------------------------------------------------------------
    def _send(
        self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8", **headers: str
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "same-origin")  # no-referrer makes forms send `Origin: null`
        self.send_header("Cache-Control", "no-store")
        for k, v in headers.items():
            self.send_header(k.replace("_", "-"), v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _html(self, text: str, status: int = 200) -> None:
        self._send(status, text.encode("utf-8"))

    def _redirect(self, location: str) -> None:
        self._send(303, b"", Location=location)

    def _check_host(self) -> None:
        if self.headers.get("Host", "") not in self.allowed_hosts:
            raise HttpError(421, "this viewer answers only on its own loopback address")

    def _dispatch(self, method: str) -> None:
        try:
            self._check_host()
            raw = urlsplit(self.path)
            # Split before unquoting, so an encoded `/` or `..` stays inside one segment.
            parts = [unquote(p) for p in raw.path.split("/") if p]
            if any(p in (".", "..") for p in parts):
                raise HttpError(400, "a path with `.` or `..` segments is refused")
            query = {k: v[-1] for k, v in parse_qs(raw.query).items()}
            (self._post if method == "POST" else self._get)(parts, query)
            # The full index starts once the first answer is out, so it does not slow that one.
            for run in self.viewer.runs:
                run.start_indexing()
        except HttpError as e:
            self._html(pages.error_page(e.status, str(e)), e.status)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:  # a damaged folder the readers did not foresee: say so, keep serving
            self._html(pages.error_page(500, f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"), 500)

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    # -- GET --------------------------------------------------------------------------------
    def _get(self, parts: list[str], query: dict[str, str]) -> None:
        v = self.viewer
        if not parts:
            if len(v.runs) == 1:
                return self._redirect("/run/0/")
            return self._html(pages.runs_page(v.runs))
        if parts == ["static", "view.js"]:
            return self._send(200, VIEW_JS.encode(), "text/javascript; charset=utf-8")
        if parts[0] != "run" or len(parts) < 2:
            raise HttpError(404, "no such page")
        i, run = v.run(parts[1])
        rest = parts[2:]
        if not rest:
            return self._html(self._list(i, run, query))
        kind, names = rest[0], rest[1:]
        if kind == "task" and len(names) == 1:
            row = _task_row(run, names[0])
            return self._html(pages.task_page(i, run, row, v.token, query.get("saved") == "1"))
        if kind == "evidence" and len(names) == 1:
            _task_row(run, names[0])
            return self._html(review_pages.evidence_fragment(run.run_dir / names[0]))
        if kind == "file" and names:
            return self._file(run, names)
        if kind == "manuals" and not names:
            return self._html(review_pages.manuals_page(i, run))
        if kind == "manual" and len(names) == 1:
            text = self._manual_text(run, names[0])
            return self._html(
                review_pages.manual_page(i, run, names[0], text, v.token, query.get("saved", ""))
            )
        raise HttpError(404, "no such page")

    def _list(self, i: int, run: RunIndex, query: dict[str, str]) -> str:
        status, only = query.get("status", ""), query.get("disagree") == "1"
        verify = query.get("verify", "") if query.get("verify", "") in VERIFY else ""
        try:
            page = max(1, int(query.get("page", "1")))
        except ValueError:
            page = 1
        start = (page - 1) * pages.PAGE_SIZE
        if not status and not only and not verify:  # only this page's result.json files are read
            rows = [run.row(f) for f in run.folders[start : start + pages.PAGE_SIZE]]
            total = len(run.folders)
        else:
            every = run.all_rows(timeout=2.0)
            if every is None:
                return pages.list_page(
                    i, run, page=page, status=status, only_disagree=only, rows=None, total=0, verify=verify
                )
            chosen = pages.filtered(run, every, status, only, verify)
            rows, total = chosen[start : start + pages.PAGE_SIZE], len(chosen)
        return pages.list_page(
            i, run, page=page, status=status, only_disagree=only, rows=rows, total=total, verify=verify
        )

    def _file(self, run: RunIndex, names: list[str]) -> None:
        """An image inside the run, streamed; anything else is refused."""
        _task_row(run, names[0])
        rel = Path(*names)
        try:
            real = check_image(run.run_dir, rel)
        except FileNotFoundError:
            raise HttpError(404, f"{rel.name}: no such file") from None
        except (OSError, UnsafeFile) as e:
            raise HttpError(403, str(e)) from None
        ctype = "image/png" if real.suffix.lower() == ".png" else "image/jpeg"
        with real.open("rb") as f:
            size = Path(real).stat().st_size
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(size))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Cache-Control", "private, max-age=3600")
            self.end_headers()
            if self.command != "HEAD":
                shutil.copyfileobj(f, self.wfile, CHUNK)

    def _manual_text(self, run: RunIndex, name: str) -> str:
        if name not in review_pages.manual_names(run):
            raise HttpError(404, f"no manual {name!r} in {run.name}/manuals")
        try:
            return review_pages.read_manual(run, name)
        except (OSError, ValueError) as e:
            raise HttpError(403, str(e)) from None

    # -- POST -------------------------------------------------------------------------------
    def _form(self) -> dict[str, str]:
        origin = self.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc not in self.allowed_hosts:
            raise HttpError(403, "a form from another origin is refused")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise HttpError(400, "a bad Content-Length") from None
        if length > MAX_FORM_BYTES:
            raise HttpError(413, f"a form of more than {MAX_FORM_BYTES} bytes is refused")
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        form = {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()}
        if not secrets.compare_digest(form.get("token", ""), self.viewer.token):
            raise HttpError(403, "the form's token is not this viewer's: reload the page")
        return form

    def _post(self, parts: list[str], query: dict[str, str]) -> None:
        if len(parts) != 4 or parts[0] != "run":
            raise HttpError(404, "no such form")
        i, run = self.viewer.run(parts[1])
        form = self._form()
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if parts[2] == "label":
            row = _task_row(run, parts[3])
            label = Label(
                row.task_id, form.get("label", ""), form.get("note", ""), form.get("labeller", ""), now
            )
            with self.viewer.write_lock:
                _, error = run.labels()
                if error:
                    raise HttpError(409, f"fix the label file first: {error}")
                try:
                    append_label(run.labels_path, label)
                except (LabelFileError, ValueError) as e:
                    raise HttpError(400, str(e)) from None
            return self._redirect(pages.path_url("run", str(i), "task", row.folder) + "?saved=1")
        if parts[2] == "manual":
            name = parts[3]
            text = self._manual_text(run, name)
            decision = form.get("decision", "")
            edited = form.get("text", "").replace("\r\n", "\n")
            if decision == "edit" and edited.strip() == text.strip():
                decision = "accept"  # an edit that changes nothing accepts the manual as written
            review = Review(
                task_id=name,
                decision=decision,
                text=edited if decision == "edit" else "",
                note=form.get("note", ""),
                reviewer=form.get("reviewer", ""),
                time=now,
                manual_sha256=form.get("manual_sha256", ""),
            )
            with self.viewer.write_lock:
                try:
                    append_review(review_pages.manuals_dir(run), review)
                except (ReviewFileError, OSError) as e:
                    raise HttpError(400, str(e)) from None
            return self._redirect(pages.path_url("run", str(i), "manual", name) + f"?saved={decision}")
        raise HttpError(404, "no such form")


def make_server(runs: list[Path], port: int = 0) -> tuple[ThreadingHTTPServer, Viewer]:
    """The server bound to 127.0.0.1 (`port` 0: a free one); serve with `serve_forever()`."""
    viewer = Viewer(runs)
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    httpd.daemon_threads = True
    bound = httpd.server_address[1]
    hosts = frozenset({f"127.0.0.1:{bound}", f"localhost:{bound}"})
    handler = type("BoundHandler", (Handler,), {"viewer": viewer, "allowed_hosts": hosts})
    httpd.RequestHandlerClass = handler
    for run in viewer.runs:  # read once before the address is given, so the first page need not
        run.labels()
        run.judges()
    return httpd, viewer


def url_of(httpd: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/"


__all__ = ["Viewer", "make_server", "url_of"]
