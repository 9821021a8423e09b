"""The trade dashboard: a cross-origin iframe near the bottom of the viewport.

Inside the frame, a transparent "pan layer" covers the country list, so a physical click
never reaches a list item while a DOM click (what the harness's iframe fallback sends)
does. The bar chart shows values only in hover tooltips; a click pins the bar and hides
the tooltip, so clicking where one should hover reveals nothing.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from .context import SiteContext
from .data import COUNTRIES, DASH_YEARS
from .layout import esc, frame_page, js_data, page

MAIN_CSS = """
.kpis { display: flex; gap: 18px; height: 150px; }
.kpi { flex: 1; background: #fff; border: 1px solid #d5dce4; border-radius: 6px; padding: 18px 22px; }
.kpi .k { font-size: 13px; color: #5a6877; } .kpi .v { font-size: 30px; font-weight: bold; color: #0f3b63; margin-top: 10px; }
.explain { height: 96px; }
#dash { position: absolute; left: 48px; top: 596px; width: 1824px; height: 470px; border: 1px solid #b9c6d3;
        border-radius: 6px; background: #fff; }
"""

FRAME_CSS = """
body { background: #fff; margin: 0; }
.wrap { display: flex; gap: 28px; padding: 16px 20px; }
.listbox { position: relative; width: 620px; }
#country-list { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: 1fr 1fr;
                grid-auto-rows: 29px; column-gap: 10px; }
#country-list li { padding: 4px 10px; border-radius: 4px; cursor: pointer; font-size: 14px; white-space: nowrap; }
#country-list li.sel { background: #0b5cab; color: #fff; }
#list-shield { position: absolute; inset: 0; background: transparent; z-index: 5; }
#detail { width: 300px; }
#detail dt { font-size: 12px; color: #5a6877; margin-top: 12px; }
#detail dd { margin: 2px 0 0 0; font-size: 22px; font-weight: bold; color: #0f3b63; }
#detail h3 { margin: 0; font-size: 18px; }
.chartbox { position: relative; flex: 1; }
#chart rect.bar { fill: #3b82c4; cursor: pointer; } #chart rect.bar:hover { fill: #f2b632; }
#chart rect.bar.pinned { fill: #0f3b63; }
#tooltip { position: absolute; background: #1d2733; color: #fff; padding: 6px 10px; border-radius: 4px;
           font-size: 14px; pointer-events: none; white-space: nowrap; }
h4 { margin: 0 0 8px 0; color: #14507f; }
"""

FRAME_JS = """
const TRADE = __TRADE__; const NAMES = __NAMES__; const YEARS = __YEARS__; const MAIN = __MAIN__;
const CODES = Object.fromEntries(Object.entries(NAMES).map(([c, n]) => [n, c]));
const $ = (s) => document.querySelector(s);
let current = 'AU';
function show(code) {
  current = code;
  document.querySelectorAll('#country-list li').forEach(li => li.classList.toggle('sel', li.dataset.code === code));
  const t = TRADE[code]; const i = YEARS.indexOf(2024);
  $('#detail h3').textContent = NAMES[code];
  $('#detail [data-k=exports]').textContent = t.exports[i].toFixed(1);
  $('#detail [data-k=imports]').textContent = t.imports[i].toFixed(1);
  $('#detail [data-k=balance]').textContent = (t.exports[i] - t.imports[i]).toFixed(1);
  // The partner links to its statistics on the portal (the top window), so what the user
  // selected here decides what the next page shows.
  const a = document.createElement('a'); a.textContent = t.partner; a.target = '_top';
  a.href = MAIN + '/stats?country=' + CODES[t.partner] + '&indicator=cpi';
  $('#detail [data-k=partner]').replaceChildren(a);
  drawChart();
}
function hideTip() { const tip = $('#tooltip'); tip.hidden = true; tip.querySelector('.val').textContent = ''; tip.querySelector('.yr').textContent = ''; }
function drawChart() {
  const svg = $('#chart'); svg.innerHTML = ''; hideTip();
  const vals = TRADE[current].exports; const max = Math.max(...vals) * 1.1;
  const W = 760, H = 330, bw = 70, gap = (W - 60 - bw * YEARS.length) / YEARS.length;
  const ns = 'http://www.w3.org/2000/svg';
  YEARS.forEach((y, k) => {
    const h = vals[k] / max * (H - 50); const x = 50 + k * (bw + gap); const top = H - 30 - h;
    const r = document.createElementNS(ns, 'rect');
    r.setAttribute('x', x); r.setAttribute('y', top); r.setAttribute('width', bw); r.setAttribute('height', h);
    r.setAttribute('class', 'bar'); r.dataset.year = y;
    r.addEventListener('mouseenter', () => {
      const tip = $('#tooltip'); tip.querySelector('.yr').textContent = y + ' exports: USD ';
      tip.querySelector('.val').textContent = vals[k].toFixed(1); tip.hidden = false;
      tip.style.left = (x + bw + 6) + 'px'; tip.style.top = Math.max(0, top - 10) + 'px';
    });
    r.addEventListener('mouseleave', hideTip);
    // A click pins the series and dismisses the tooltip, like many BI tools do.
    r.addEventListener('mousedown', () => { r.classList.toggle('pinned'); hideTip(); });
    svg.appendChild(r);
    const t = document.createElementNS(ns, 'text');
    t.setAttribute('x', x + bw / 2); t.setAttribute('y', H - 10); t.setAttribute('text-anchor', 'middle');
    t.setAttribute('font-size', '13'); t.textContent = y; svg.appendChild(t);
  });
  const axis = document.createElementNS(ns, 'line');
  axis.setAttribute('x1', 40); axis.setAttribute('x2', W); axis.setAttribute('y1', H - 30); axis.setAttribute('y2', H - 30);
  axis.setAttribute('stroke', '#7a8896'); svg.appendChild(axis);
}
document.querySelectorAll('#country-list li').forEach(li => li.addEventListener('click', () => show(li.dataset.code)));
show('AU');
"""


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/dashboard", response_class=HTMLResponse)
    def dashboard() -> str:
        w = ctx.world
        total = sum(t["exports"][-2] for t in w.trade.values())  # type: ignore[index]
        body = f"""
<h1>Trade dashboard</h1>
<p class="lead">Merchandise trade by country, compiled from customs declarations. The interactive
dashboard below is provided by our visualisation partner.</p>
<div class="kpis">
 <div class="kpi"><div class="k">Countries covered</div><div class="v">{len(COUNTRIES)}</div></div>
 <div class="kpi"><div class="k">Total exports 2024 (USD bn)</div><div class="v">{total:,.0f}</div></div>
 <div class="kpi"><div class="k">Latest release</div><div class="v">14 Mar 2025</div></div>
 <div class="kpi"><div class="k">Next release</div><div class="v">12 Jun 2025</div></div>
</div>
<div class="card explain" style="margin-top:18px"><h2>How to use</h2>Select a country in the list to see its
2024 trade figures. Hover a bar to read the exports of that year.</div>
<iframe id="dash" title="Trade dashboard" src="{esc(ctx.frame_url)}/embed/trade"></iframe>
<div style="height:520px"></div>"""
        return page("Trade dashboard", body, active="/dashboard", extra_css=MAIN_CSS)

    @frame.get("/embed/trade", response_class=HTMLResponse)
    def embed() -> str:
        items = "".join(f'<li data-code="{c.code}">{esc(c.option)}</li>' for c in COUNTRIES)
        body = f"""<div class="wrap">
<div class="listbox"><h4>Countries</h4><div style="position:relative"><ul id="country-list">{items}</ul>
<div id="list-shield"></div></div></div>
<div id="detail"><h3></h3><dl>
 <dt>Exports 2024, USD bn</dt><dd class="v" data-k="exports"></dd>
 <dt>Imports 2024, USD bn</dt><dd class="v" data-k="imports"></dd>
 <dt>Trade balance 2024, USD bn</dt><dd class="v" data-k="balance"></dd>
 <dt>Main trading partner</dt><dd class="v" data-k="partner" style="font-size:17px"></dd></dl></div>
<div class="chartbox"><h4>Exports by year (USD bn)</h4><svg id="chart" width="780" height="340"></svg>
<div id="tooltip" hidden><span class="yr"></span><span class="val"></span> bn</div></div>
</div>"""
        script = (
            FRAME_JS.replace("__TRADE__", js_data(ctx.world.trade))
            .replace("__NAMES__", js_data({c.code: c.option for c in COUNTRIES}))
            .replace("__YEARS__", js_data(DASH_YEARS))
            .replace("__MAIN__", js_data(ctx.main_url))
        )
        return frame_page("Trade dashboard", body, extra_css=FRAME_CSS, script=script)
