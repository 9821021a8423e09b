"""The widget lab's live pages: answers that arrive later than a naive settle wait looks.

- `/lab/ws?delay=MS`: an order form whose result arrives over a WebSocket after a server
  delay. A second submission (while the first is being processed, or after it) is refused by
  the server and the refusal replaces the reference on the page: a harness that returns
  before the answer invites exactly that double submission.
- `/lab/ws-frame?delay=MS`: the same form inside an out-of-process iframe (frame origin).
- `/lab/autocomplete`: suggestions fetched 300 ms after the last keystroke (a debounce).
- `/lab/busy?clock=1&stream=1&spin=1`: a page that never goes quiet (a clock ticking every
  100 ms, an endless WebSocket stream, an endless CSS animation) with a button that does
  nothing and one that changes a label.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse

from .context import SiteContext
from .layout import esc, frame_page

PAGES = {
    "ws?delay=400": "WebSocket order form",
    "ws-frame?delay=400": "WebSocket form in an embedded frame",
    "autocomplete": "Autocomplete with a debounce",
    "busy?clock=1&stream=1&spin=1": "A page that never goes quiet",
}

WS_FORM = """<div class="card" id="ws-card"><h2>Order a data extract</h2>
<p>Dataset: <b>Port arrivals, monthly</b> · Format: CSV</p>
<p><label>Copies <input type="text" id="copies" value="2" style="min-width:80px"></label></p>
<button id="submit">Submit order</button>
<p id="result" aria-live="polite"></p></div>"""
WS_JS = """const DELAY = __DELAY__; const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/lab/socket');
const result = document.getElementById('result');
ws.onmessage = (e) => { const m = JSON.parse(e.data);
  result.innerHTML = m.ok ? 'Order accepted. Reference <b class="ref">' + m.ref + '</b>' : 'Refused: ' + m.error; };
document.getElementById('submit').onclick = () => ws.send(JSON.stringify({copies: document.getElementById('copies').value, delay: DELAY}));"""

AUTOCOMPLETE = """<div class="card"><h2>Find a port</h2><input type="text" id="port-q" autocomplete="off" placeholder="Port name">
<ul id="port-suggestions" style="list-style:none;padding:0;margin:4px 0;width:260px"></ul><p id="port-result">No port chosen</p></div>"""
AUTOCOMPLETE_JS = """const q = document.getElementById('port-q'), ul = document.getElementById('port-suggestions'); let deb = 0;
q.addEventListener('input', () => { clearTimeout(deb); deb = setTimeout(async () => {
  const r = await fetch('/lab/api/ports?q=' + encodeURIComponent(q.value)); const ports = await r.json();
  ul.innerHTML = ''; for (const p of ports) { const li = document.createElement('li'); li.textContent = p.name;
    li.dataset.code = p.code; li.style.cssText = 'padding:8px;cursor:pointer;border-bottom:1px solid #ddd';
    li.onclick = () => { document.getElementById('port-result').innerHTML = p.name + ': <b class="code">' + p.code + '</b>'; ul.innerHTML = ''; };
    ul.appendChild(li); } }, 300); });"""
PORTS = [
    ("Rotterdam", "NLRTM"),
    ("Hamburg", "DEHAM"),
    ("Antwerp", "BEANR"),
    ("Piraeus", "GRPIR"),
    ("Valencia", "ESVLC"),
    ("Gdansk", "PLGDN"),
    ("Genoa", "ITGOA"),
    ("Le Havre", "FRLEH"),
]

BUSY = """<div class="card"><h2>Live board</h2><p>Time: <span id="clock">00:00:00.0</span></p>
<p>Ticker: <span id="ticker">waiting</span></p><div id="spinner" style="width:40px;height:40px;border:6px solid #ccc;border-top-color:#0b5cab;border-radius:50%"></div>
<p><button id="noop">Does nothing</button> <button id="mark">Mark</button> <button id="start">Start counting</button></p>
<p id="marked">Not marked</p><p id="counting">0</p></div>"""
BUSY_JS = """const P = new URLSearchParams(location.search);
if (P.get('clock')) setInterval(() => { const d = new Date(); document.getElementById('clock').textContent =
  d.toISOString().slice(11, 21); }, 100);
if (P.get('stream')) { const s = new WebSocket('ws://' + location.host + '/lab/stream');
  s.onmessage = (e) => { document.getElementById('ticker').textContent = e.data; }; }
if (P.get('spin')) document.getElementById('spinner').animate([{transform: 'rotate(0deg)'}, {transform: 'rotate(360deg)'}],
  {duration: 800, iterations: Infinity});
document.getElementById('mark').onclick = () => { document.getElementById('marked').textContent = 'Marked'; };
document.getElementById('start').onclick = () => setInterval(() => { const c = document.getElementById('counting');
  c.textContent = +c.textContent + 1; }, 40);"""


def ws_reference(copies: str) -> str:
    return "R-" + hashlib.sha1(f"order:{copies.strip()}".encode()).hexdigest()[:6].upper()


def _delay(raw: str | None) -> int:
    try:
        return max(0, min(5000, int(raw or 0)))
    except ValueError:
        return 0


def register(
    ctx: SiteContext, main: FastAPI, frame: FastAPI, lab_page: Callable[[str, str, str], str]
) -> None:
    def form_body(delay: int) -> tuple[str, str]:
        return WS_FORM, WS_JS.replace("__DELAY__", str(delay))

    for app, embedded in ((main, False), (frame, True)):
        _register_socket(app)

        def ws_page(delay: str | None = None, embedded: bool = embedded) -> str:
            body, script = form_body(_delay(delay))
            if embedded:
                return frame_page("Order form", body, script=script)
            return lab_page("WebSocket order form", body, script)

        app.add_api_route("/lab/ws", ws_page, response_class=HTMLResponse, methods=["GET"])

    @main.get("/lab/ws-frame", response_class=HTMLResponse)
    def ws_frame(delay: str | None = None) -> str:
        src = f"{ctx.frame_url}/lab/ws?delay={_delay(delay)}"
        body = (
            f"<p>The order form below is provided by our fulfilment partner.</p>"
            f'<iframe id="order-frame" title="Order form" src="{esc(src)}" '
            'style="width:900px;height:420px;border:1px solid #b9c6d3;background:#fff"></iframe>'
        )
        return lab_page("Order form (embedded)", body, "")

    @main.get("/lab/autocomplete", response_class=HTMLResponse)
    def autocomplete() -> str:
        return lab_page("Autocomplete", AUTOCOMPLETE, AUTOCOMPLETE_JS)

    @main.get("/lab/api/ports")
    def ports(q: str = "") -> JSONResponse:
        ql = q.strip().lower()
        return JSONResponse([{"name": n, "code": c} for n, c in PORTS if ql and ql in n.lower()])

    @main.get("/lab/busy", response_class=HTMLResponse)
    def busy() -> str:
        return lab_page("A page that never goes quiet", BUSY, BUSY_JS)

    @main.websocket("/lab/stream")
    async def stream(ws: WebSocket) -> None:
        await ws.accept()
        n = 0
        try:
            while True:
                n += 1
                await ws.send_text(f"tick {n}")
                await asyncio.sleep(0.05)
        except (WebSocketDisconnect, RuntimeError):
            return


def _register_socket(app: FastAPI) -> None:
    @app.websocket("/lab/socket")
    async def socket(ws: WebSocket) -> None:
        """One order per form: a second submission (while the first is pending or after it was
        accepted) is refused, and the refusal is what the page shows last."""
        await ws.accept()
        busy = asyncio.Event()
        submitted = False
        tasks: set[asyncio.Task] = set()

        async def answer(msg: dict) -> None:
            await asyncio.sleep(_delay(str(msg.get("delay", 0))) / 1000)
            await ws.send_json({"ok": True, "ref": ws_reference(str(msg.get("copies", "")))})
            busy.clear()

        try:
            while True:
                msg = await ws.receive_json()
                if submitted:
                    # answered once the first request is done, so it is what the page shows last
                    async def refuse() -> None:
                        while busy.is_set():
                            await asyncio.sleep(0.01)
                        await ws.send_json(
                            {
                                "ok": False,
                                "error": "this order was already submitted; the duplicate was not accepted",
                            }
                        )

                    tasks.add(asyncio.create_task(refuse()))
                    continue
                busy.set()
                submitted = True
                tasks.add(asyncio.create_task(answer(msg)))
        except (WebSocketDisconnect, RuntimeError, ValueError):
            for t in tasks:
                t.cancel()
