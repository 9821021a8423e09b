"""A loopback site for the document tests: an index page and files with their own Content-Type
and Content-Disposition (tests/support/servers.serve_pages sends HTML only)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# path -> (Content-Type, Content-Disposition kind or None, body)
Files = dict[str, tuple[str, str | None, bytes]]


@contextmanager
def serve_files(index: str, files: Files) -> Iterator[str]:
    """Serve `index` at / and each file at its path (404 elsewhere); yields the base URL."""

    class Site(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            if self.path == "/":
                ctype, disp, body = "text/html", None, index.encode()
            elif self.path in files:
                ctype, disp, body = files[self.path]
            else:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            if disp:
                self.send_header("Content-Disposition", f"{disp}; filename={self.path.rsplit('/', 1)[1]}")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a: object) -> None:
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
