"""Real HTTP servers on loopback for tests: serve in-memory pages on two ports.

Pages on port A can embed pages on port B. From `127.0.0.1:A` an iframe at
`127.0.0.1:B` is cross-origin but in-process; at `localhost:B` it is out-of-process.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Redirect(str):
    """A page value that answers 302 to this URL."""


class _Handler(BaseHTTPRequestHandler):
    pages: dict[str, str | bytes] = {}
    log: list[str]
    bodies: list[tuple[str, bytes]]  # every POST's path and body, for tests of what a server got

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        length = int(self.headers.get("Content-Length") or 0)
        self.bodies.append((self.path, self.rfile.read(length)))
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self.log.append(self.path)
        path = self.path.split("?", 1)[0]
        body = self.pages.get(path)
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        if isinstance(body, Redirect):
            self.send_response(302)
            self.send_header("Location", str(body))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = body.encode() if isinstance(body, str) else body
        self.send_response(200)
        # Bytes get the type of their extension: module scripts (a library's ES build) are
        # refused by the browser unless served as JavaScript.
        guessed = mimetypes.guess_type(path)[0]
        ctype = "text/html; charset=utf-8" if isinstance(body, str) else guessed or "application/octet-stream"
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


class PageServer:
    def __init__(self, pages: dict[str, str | bytes]) -> None:
        handler = type("H", (_Handler,), {"pages": pages, "log": [], "bodies": []})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.log: list[str] = handler.log
        self.bodies: list[tuple[str, bytes]] = handler.bodies
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"


@contextmanager
def serve_pages(pages: dict[str, str | bytes]) -> Iterator[PageServer]:
    srv = PageServer(pages)
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.httpd.shutdown()
        srv.httpd.server_close()


@contextmanager
def two_origins(
    main_pages: dict[str, str | bytes], frame_pages: dict[str, str | bytes]
) -> Iterator[tuple[PageServer, PageServer]]:
    """Two servers: the main site and a second origin for embedded frames."""
    with serve_pages(main_pages) as a, serve_pages(frame_pages) as b:
        yield a, b
