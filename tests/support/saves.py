"""A small stateful site on loopback: a form whose "Saved" toast can lie.

`/form` has one text box and a Save button; Save posts JSON to `/api/items` and shows the
toast "Saved" when the server answers 200. Below the form, the list of saved items is
rendered client-side from `GET /api/items` when the page loads, so a reload shows what the
server really holds. Misbehaviours, each off by default:

- `lie_first=N`: the first N saves answer 200 with the real success body and store nothing
  (seed 003's forged success);
- `fail_first=N`: the first N saves answer 503 (the toast says "Could not save");
- `limit_s=S`: the first save answers 429 with `Retry-After: S` and the page says "Too many
  requests — try again in S s"; a save sooner than S seconds after the last 429 gets another;
- `overlay=True`: a transparent layer over the Save button eats every click.

`/list` shows the same list on its own page. `items` is the server's state: tests assert on
it, not on the page.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FORM = """<!doctype html><html><head><title>New request</title><style>
body { margin: 0; font: 18px sans-serif; }
#title { position: absolute; left: 100px; top: 100px; width: 400px; height: 40px; font-size: 18px; }
#save { position: absolute; left: 540px; top: 100px; width: 140px; height: 44px; font-size: 18px; }
#toast { position: absolute; left: 720px; top: 108px; color: #070; }
#saved { position: absolute; left: 100px; top: 220px; }
#cover { position: absolute; left: 530px; top: 90px; width: 160px; height: 64px; z-index: 5; }
</style></head><body>
<input id=title aria-label="Title" placeholder="Title">
<button id=save>Save</button>
<div id=toast role=status></div>
{overlay}<div id=saved><h2>Your saved requests</h2><ul id=items></ul></div>
<script>
async function load() {
  const items = await (await fetch('/api/items')).json();
  document.getElementById('items').innerHTML =
    items.length ? items.map(t => '<li>' + t + '</li>').join('') : '<li class=none>No saved requests</li>';
}
document.getElementById('save').onclick = async () => {
  const r = await fetch('/api/items', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                       body: JSON.stringify({title: document.getElementById('title').value})});
  const wait = r.headers.get('Retry-After');
  document.getElementById('toast').textContent = r.ok ? 'Saved' :
    (r.status === 429 ? 'Too many requests — try again in ' + wait + ' s' : 'Could not save');
};
load();
</script></body></html>"""

LIST = """<!doctype html><html><head><title>Saved requests</title></head><body style="font: 18px sans-serif">
<h2>Saved requests</h2><ul id=items>{items}</ul></body></html>"""


class SavesServer:
    def __init__(
        self, lie_first: int = 0, fail_first: int = 0, limit_s: float = 0.0, overlay: bool = False
    ) -> None:
        self.items: list[str] = []  # the real state
        self.posts = 0
        self.lie_first = lie_first
        self.fail_first = fail_first
        self.limit_s = limit_s
        self.overlay = overlay
        self.limited_at: float | None = None  # monotonic time of the last 429
        self.answers: list[int] = []  # status of every save, in order
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, code: int, body: str, ctype: str = "text/html; charset=utf-8") -> None:
                data = body.encode()
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 - stdlib name
                path = self.path.split("?", 1)[0]
                if path == "/form":
                    cover = "<div id=cover></div>" if site.overlay else ""
                    self._send(200, FORM.replace("{overlay}", cover))
                elif path == "/list":
                    with site.lock:
                        rows = "".join(f"<li>{t}</li>" for t in site.items) or "<li>No saved requests</li>"
                    self._send(200, LIST.format(items=rows))
                elif path == "/api/items":
                    with site.lock:
                        self._send(200, json.dumps(site.items), "application/json")
                else:
                    self._send(404, "not found")

            def do_POST(self) -> None:  # noqa: N802 - stdlib name
                if self.path != "/api/items":
                    self._send(404, "not found")
                    return
                length = int(self.headers.get("Content-Length") or 0)
                title = str(json.loads(self.rfile.read(length) or b"{}").get("title", "")).strip()
                if not title:
                    self._send(422, json.dumps({"error": "a title is required"}), "application/json")
                    return
                with site.lock:
                    site.posts += 1
                    code = site._answer(time.monotonic())
                    site.answers.append(code)
                    if (
                        code == 200 and site.posts > site.lie_first + site.fail_first
                    ):  # forged: nothing stored
                        site.items.append(title)
                if code == 429:
                    self.send_response(429)
                    self.send_header("Retry-After", f"{site.limit_s:g}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if code == 503:
                    self._send(503, json.dumps({"error": "temporarily unavailable"}), "application/json")
                    return
                self._send(200, json.dumps({"ok": True, "title": title}), "application/json")

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _answer(self, now: float) -> int:
        """The status of this save (called under the lock; `posts` already counts it)."""
        if self.limit_s and (self.limited_at is None or now - self.limited_at < self.limit_s):
            self.limited_at = now
            self.posts -= 1  # a refused save is not a save: the forged/failing ordinals stay in place
            return 429
        if self.posts <= self.fail_first:
            return 503
        return 200

    def url(self, path: str = "/form") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def serve_saves(**misbehaviour: object) -> Iterator[SavesServer]:
    srv = SavesServer(**misbehaviour)  # type: ignore[arg-type]
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.httpd.shutdown()
        srv.httpd.server_close()
