"""Two pages that make an agent wait or clear the way first.

`/shipments` shows a spinner while its first rows arrive (1-3 s, seeded) and loads more
rows only when the bottom of the table scrolls into view. `/energy` hides its data behind
a consent dialog whose backdrop swallows every click until a choice is made; the choice
is not remembered, so each visit asks again.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse

from .context import SiteContext
from .layout import esc, js_data, page

ORIGINS = ["Shanghai", "Busan", "Singapore", "Rotterdam", "Santos", "Durban", "Mombasa", "Callao", "Haiphong"]
STATUSES = ["In transit", "At port", "Customs hold", "Delivered", "Delayed"]
PAGE_SIZE = 25
TOTAL_SHIPMENTS = 100


@dataclass(frozen=True)
class Shipment:
    sid: str
    origin: str
    status: str
    weight_t: float
    eta: str


@lru_cache(maxsize=8)
def shipments(seed: int) -> list[Shipment]:
    rng = random.Random(f"shipments-{seed}")
    out = []
    for i in range(TOTAL_SHIPMENTS):
        out.append(
            Shipment(
                f"SHP-{10400 + i * 7 + rng.randint(0, 6)}",
                rng.choice(ORIGINS),
                rng.choice(STATUSES),
                round(rng.uniform(2, 480), 1),
                f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            )
        )
    return out


def first_delay_s(seed: int) -> float:
    return round(random.Random(f"slow-{seed}").uniform(1.0, 3.0), 2)


def alerts(seed: int) -> list[str]:
    return [s.sid for s in shipments(seed)[:PAGE_SIZE] if s.status == "Customs hold"]


SLOW_JS = """
const $ = (s) => document.querySelector(s);
let next = 0, busy = false, done = false;
async function load() {
  if (busy || done) return; busy = true; $('#more').hidden = false;
  const d = await (await fetch('/shipments/api/rows?offset=' + next)).json();
  for (const s of d.rows) {
    const tr = document.createElement('tr'); tr.dataset.id = s.sid;
    tr.innerHTML = '<td class="sid"></td><td class="origin"></td><td class="status"></td><td class="weight num"></td><td class="eta"></td>';
    [s.sid, s.origin, s.status, s.weight, s.eta].forEach((v, i) => { tr.children[i].textContent = v; });
    $('#ship tbody').appendChild(tr);
  }
  if (next === 0) { $('#spinner').remove(); $('#ship').hidden = false; $('#alerts').textContent = d.alerts; }
  next += d.rows.length; done = next >= d.total; busy = false; $('#more').hidden = true;
  if (done) $('#sentinel').textContent = 'All ' + d.total + ' shipments loaded.';
}
new IntersectionObserver((es) => { if (es.some(e => e.isIntersecting) && next > 0) load(); }).observe($('#sentinel'));
load();
"""

CONSENT_CSS = """
#consent-backdrop { position: fixed; inset: 0; background: rgba(15, 30, 50, .55); z-index: 100; }
#consent { position: fixed; left: 50%; top: 50%; transform: translate(-50%, -50%); width: 640px; background: #fff;
  border-radius: 8px; padding: 26px 30px; z-index: 101; box-shadow: 0 10px 40px rgba(0,0,0,.35); }
#consent h2 { margin-top: 0; } #consent .btns { display: flex; gap: 14px; justify-content: flex-end; margin-top: 20px; }
.tabs { display: flex; gap: 4px; margin-left: 420px; } .tabs button.tab { background: #fff; color: #0b5cab; }
.tabs button.tab.on { background: #0b5cab; color: #fff; }
#prices-card { max-width: 1000px; margin-left: 420px; }
"""

CONSENT_JS = """
const PRICES = __PRICES__;
const $ = (s) => document.querySelector(s);
let tab = 'electricity';
function render() {
  const month = $('#month').value; const body = $('#prices tbody'); body.innerHTML = '';
  document.querySelectorAll('.tab').forEach(b => b.classList.toggle('on', b.dataset.tab === tab));
  $('#unit').textContent = tab === 'electricity' ? 'Price, cents per kWh' : 'Price, EUR per MWh';
  for (const [region, vals] of Object.entries(PRICES[tab])) {
    const tr = document.createElement('tr'); tr.dataset.region = region;
    tr.innerHTML = '<td></td><td class="price num"></td>';
    tr.children[0].textContent = region; tr.children[1].textContent = vals[month];
    body.appendChild(tr);
  }
}
function consent() {
  $('#consent-backdrop').remove(); $('#consent').remove();
  $('#energy-content').hidden = false; render();
}
$('#consent-accept').addEventListener('click', consent);
$('#consent-reject').addEventListener('click', consent);
document.querySelectorAll('.tab').forEach(b => b.addEventListener('click', () => { tab = b.dataset.tab; render(); }));
$('#month').addEventListener('change', render);
"""
REGIONS = ["North", "North-East", "East", "South-East", "South", "South-West", "West", "Central", "Islands"]
ENERGY_MONTHS = ["2024-10", "2024-11", "2024-12", "2025-01", "2025-02", "2025-03"]
MONTH_LABELS = {
    m: f"{['October', 'November', 'December', 'January', 'February', 'March'][i]} {m[:4]}"
    for i, m in enumerate(ENERGY_MONTHS)
}


@lru_cache(maxsize=8)
def energy_prices(seed: int) -> dict[str, dict[str, dict[str, str]]]:
    rng = random.Random(f"energy-{seed}")
    out: dict[str, dict[str, dict[str, str]]] = {"electricity": {}, "gas": {}}
    for region in REGIONS:
        out["electricity"][region] = {m: f"{rng.uniform(14, 42):.2f}" for m in ENERGY_MONTHS}
        out["gas"][region] = {m: f"{rng.uniform(25, 95):.2f}" for m in ENERGY_MONTHS}
    return out


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/shipments", response_class=HTMLResponse)
    def shipments_page() -> str:
        body = """
<h1>Shipment tracker</h1>
<p class="lead">Live status of inbound container shipments. Data are fetched from the carriers when you open
the page and more rows load as you scroll.</p>
<div class="card" style="max-width:1100px;margin-left:360px"><p id="alerts" class="muted"></p>
<div id="spinner" class="spinner"></div>
<table class="data" id="ship" hidden><thead><tr><th>Shipment</th><th>Origin</th><th>Status</th>
<th class="num">Weight (t)</th><th>ETA</th></tr></thead><tbody></tbody></table>
<div id="more" class="muted" hidden>Loading more…</div><div id="sentinel" style="height:40px"></div></div>"""
        return page("Shipment tracker", body, active="/shipments", script=SLOW_JS)

    @main.get("/shipments/api/rows")
    async def rows(offset: int = 0) -> JSONResponse:
        await asyncio.sleep(first_delay_s(ctx.seed) if offset == 0 else 0.5)
        all_rows = shipments(ctx.seed)
        chunk = all_rows[max(0, offset) : max(0, offset) + PAGE_SIZE]
        hold = alerts(ctx.seed)
        return JSONResponse(
            {
                "rows": [
                    {
                        "sid": s.sid,
                        "origin": s.origin,
                        "status": s.status,
                        "weight": f"{s.weight_t:.1f}",
                        "eta": s.eta,
                    }
                    for s in chunk
                ],
                "total": len(all_rows),
                "alerts": "Held by customs: " + ("; ".join(hold) if hold else "none"),
            }
        )

    @main.get("/energy", response_class=HTMLResponse)
    def energy() -> str:
        months = "".join(
            f'<option value="{m}"{" selected" if m == ENERGY_MONTHS[-1] else ""}>{esc(MONTH_LABELS[m])}</option>'
            for m in ENERGY_MONTHS
        )
        body = f"""
<h1>Energy price monitor</h1>
<p class="lead">Average household tariffs by region, updated monthly.</p>
<div id="energy-content" hidden>
<div class="card" style="margin-left:420px;max-width:1000px"><div class="row">
<label class="f">Month<select id="month">{months}</select></label>
<div class="tabs" style="margin-left:40px"><button class="tab" type="button" data-tab="electricity">Electricity</button>
<button class="tab" type="button" data-tab="gas">Gas</button></div></div></div>
<div class="card" id="prices-card"><p class="muted" id="unit"></p><table class="data" id="prices"><thead><tr><th>Region</th>
<th class="num">Price</th></tr></thead><tbody></tbody></table></div></div>
<div id="consent-backdrop"></div>
<div id="consent" role="dialog"><h2>We value your privacy</h2><p>We use cookies to measure how our statistics are
used. You can accept all cookies or reject non-essential ones. The data are shown once you have chosen.</p>
<div class="btns"><button id="consent-reject" class="secondary" type="button">Reject non-essential</button>
<button id="consent-accept" type="button">Accept all</button></div></div>"""
        script = CONSENT_JS.replace("__PRICES__", js_data(energy_prices(ctx.seed)))
        return page("Energy prices", body, active="/energy", extra_css=CONSENT_CSS, script=script)
