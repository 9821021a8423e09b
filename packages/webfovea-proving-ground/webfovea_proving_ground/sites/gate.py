"""A customs-data page behind our own image-grid CAPTCHA (served from the main origin).

The grid must be solved with several clicks and a Verify button. A wrong set is rejected
and cleared; the right set returns a token that unlocks the data page. Nothing is kept in
cookies, so every task meets the gate afresh.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from .context import SiteContext
from .data import token
from .images import captcha_solution, captcha_tiles
from .layout import esc, page

PORTS = [
    "Rotterdam",
    "Antwerp",
    "Hamburg",
    "Felixstowe",
    "Valencia",
    "Piraeus",
    "Gdansk",
    "Genoa",
    "Le Havre",
    "Algeciras",
    "Gothenburg",
    "Aarhus",
    "Koper",
    "Constanta",
    "Trieste",
    "Bremerhaven",
]
DELAY_LIMIT = 24


@dataclass(frozen=True)
class PortRow:
    port: str
    declarations: int
    clearance_h: float
    inspected_pct: float


@lru_cache(maxsize=8)
def port_rows(seed: int) -> list[PortRow]:
    rng = random.Random(f"gate-{seed}")
    slow_ports = set(rng.sample(PORTS, 3))  # a short list for the complete-retrieval task
    return [
        PortRow(
            p,
            rng.randint(1200, 48000),
            round(rng.uniform(24.5, 40) if p in slow_ports else rng.uniform(3, 23.5), 1),
            round(rng.uniform(0.5, 9.5), 1),
        )
        for p in PORTS
    ]


def delayed_ports(seed: int) -> list[str]:
    return [r.port for r in port_rows(seed) if r.clearance_h > DELAY_LIMIT]


def gate_token(seed: int) -> str:
    return token("gate", seed, n=16)


CSS = """
.gatebox { width: 520px; margin: 30px auto; background: #fff; border: 1px solid #c3ccd6; border-radius: 6px;
           box-shadow: 0 4px 18px rgba(0,0,0,.08); }
.gatehead { background: #1a73e8; color: #fff; padding: 16px 20px; font-size: 15px; }
.gatehead b { font-size: 24px; display: block; }
#grid { display: grid; grid-template-columns: repeat(3, 150px); gap: 6px; padding: 14px 20px; justify-content: center; }
#grid .tile { position: relative; width: 150px; height: 150px; cursor: pointer; }
#grid .tile img { width: 150px; height: 150px; display: block; }
#grid .tile.sel img { transform: scale(.86); }
#grid .tile.sel::after { content: "✓"; position: absolute; left: 4px; top: 4px; background: #1a73e8; color: #fff;
  border-radius: 50%; width: 24px; height: 24px; text-align: center; line-height: 24px; }
.gatefoot { display: flex; justify-content: space-between; align-items: center; padding: 10px 20px 16px; }
#gate-error { color: #c62828; font-size: 14px; }
"""

JS = """
const $ = (s) => document.querySelector(s);
document.querySelectorAll('#grid .tile').forEach(t => t.addEventListener('click', () => t.classList.toggle('sel')));
$('#verify').addEventListener('click', async () => {
  const sel = [...document.querySelectorAll('#grid .tile.sel')].map(t => t.dataset.i);
  const r = await fetch('/gate/verify?tiles=' + sel.join(','));
  const d = await r.json();
  if (d.ok) { location.href = '/gate/data?token=' + d.token; return; }
  $('#gate-error').textContent = 'Please try again.';
  document.querySelectorAll('#grid .tile.sel').forEach(t => t.classList.remove('sel'));
});
"""


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/gate", response_class=HTMLResponse)
    def gate() -> str:
        tiles = "".join(
            f'<div class="tile" data-i="{i}"><img src="/gate/tile/{i}.png" alt="" draggable="false"></div>'
            for i in range(9)
        )
        body = f"""
<h1>Customs data</h1>
<p class="lead">To protect the service from automated scraping, please confirm you are human.</p>
<div class="gatebox"><div class="gatehead">Select all squares with<b>traffic lights</b>Click verify once there are none left.</div>
<div id="grid">{tiles}</div>
<div class="gatefoot"><span id="gate-error"></span><button id="verify" type="button">Verify</button></div></div>"""
        return page("Customs data", body, active="/gate", extra_css=CSS, script=JS)

    @main.get("/gate/tile/{i}.png")
    def tile(i: int) -> Response:
        tiles = ctx.cache.get("tiles")
        if tiles is None:
            tiles = ctx.cache["tiles"] = captcha_tiles(ctx.seed)
        if not 0 <= i < 9:
            return Response(status_code=404)
        return Response(tiles[i], media_type="image/png", headers={"Cache-Control": "no-store"})

    @main.get("/gate/verify")
    def verify(tiles: str = "") -> JSONResponse:
        try:
            chosen = sorted({int(t) for t in tiles.split(",") if t.strip()})
        except ValueError:
            chosen = []
        if chosen == captcha_solution(ctx.seed):
            return JSONResponse({"ok": True, "token": gate_token(ctx.seed)})
        return JSONResponse({"ok": False})

    @main.get("/gate/data", response_class=HTMLResponse, response_model=None)
    def data(token: str = "") -> HTMLResponse | RedirectResponse:
        if token != gate_token(ctx.seed):
            return RedirectResponse("/gate", status_code=303)
        rows = "".join(
            f'<tr data-port="{esc(r.port)}"><td>{esc(r.port)}</td><td class="num decl">{r.declarations:,}</td>'
            f'<td class="num clearance">{r.clearance_h:.1f}</td><td class="num inspected">{r.inspected_pct:.1f}</td></tr>'
            for r in port_rows(ctx.seed)
        )
        delayed = "; ".join(delayed_ports(ctx.seed)) or "none"
        body = f"""
<h1>Customs clearance by port, Q4 2024</h1>
<div class="card" style="max-width:1200px;margin-left:300px"><p id="delayed">Ports with a median clearance time above {DELAY_LIMIT} hours: {esc(delayed)}</p>
<table class="data" id="ports"><thead><tr><th>Port</th><th class="num">Declarations</th>
<th class="num">Median clearance (h)</th><th class="num">Physically inspected (%)</th></tr></thead>
<tbody>{rows}</tbody></table></div>"""
        return HTMLResponse(page("Customs clearance", body, active="/gate"))
