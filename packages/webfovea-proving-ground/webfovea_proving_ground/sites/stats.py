"""The statistics table builder: native selects, an autocomplete filter, date inputs, an
Apply button that issues an XHR with query parameters, a long results table and a CSV link.

Option texts are spelled as statistics offices spell them ("Viet Nam", "Côte d’Ivoire"),
not as tasks say them, so a model must pick the option by meaning.
"""

from __future__ import annotations

from fastapi import FastAPI, Query
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse

from .context import SiteContext
from .data import BY_CODE, COUNTRIES, FREQUENCIES, INDICATORS, World, fmt
from .layout import esc, js_data, page

DEFAULTS = {"country": "AU", "indicator": "cpi", "freq": "M", "from": "2015-01-01", "to": "2025-12-31"}

EXTRA_CSS = """
.filters { position: relative; }
.ac { position: relative; }
#suggestions { position: absolute; top: 62px; left: 0; right: 0; z-index: 20; list-style: none; margin: 0;
  padding: 4px 0; background: #fff; border: 1px solid #9aa7b4; border-radius: 4px; box-shadow: 0 4px 14px rgba(0,0,0,.15); }
#suggestions li { padding: 8px 12px; cursor: pointer; }
#suggestions li:hover { background: #e4eef8; }
.chip { display: inline-block; background: #e4eef8; color: #0f3b63; border-radius: 14px; padding: 4px 12px;
  font-size: 13px; margin-top: 6px; }
#caption { font-size: 16px; font-weight: bold; color: #0f3b63; margin: 4px 0 10px 0; }
.tablewrap { max-width: 1100px; }
.side { position: absolute; right: 48px; top: 0; width: 560px; }
.note { font-size: 13px; color: #44505c; line-height: 1.6; }
"""

TABLE_JS = """
const INDICATORS = __INDICATORS__;
const COUNTRIES = __COUNTRIES__;
const FREQ = __FREQ__;
const $ = (s) => document.querySelector(s);
function params() {
  return new URLSearchParams({country: $('#country').value, indicator: $('#indicator').value,
    freq: $('#freq').value, from: $('#date-from').value, to: $('#date-to').value});
}
async function apply() {
  const p = params();
  $('#status').textContent = 'Loading…';
  const r = await fetch('/stats/api/table?' + p.toString());
  const d = await r.json();
  $('#caption').textContent = d.caption;
  const body = $('#results tbody');
  body.innerHTML = '';
  for (const [period, value] of d.rows) {
    const tr = document.createElement('tr');
    tr.dataset.period = period;
    tr.innerHTML = '<td class="period"></td><td class="value num"></td>';
    tr.children[0].textContent = period; tr.children[1].textContent = value;
    body.appendChild(tr);
  }
  $('#avg').textContent = d.summary.avg; $('#min').textContent = d.summary.min;
  $('#max').textContent = d.summary.max; $('#count').textContent = d.summary.n;
  $('#csv').href = '/stats/api/table.csv?' + p.toString();
  $('#status').textContent = d.rows.length + ' observations';
  history.replaceState(null, '', '/stats?' + p.toString());
}
let acTimer = null;
$('#indicator-q').addEventListener('keyup', () => {
  clearTimeout(acTimer);
  acTimer = setTimeout(async () => {
    const q = $('#indicator-q').value.trim();
    const ul = $('#suggestions');
    if (!q) { ul.hidden = true; ul.innerHTML = ''; return; }
    const r = await fetch('/stats/api/suggest?q=' + encodeURIComponent(q));
    const items = await r.json();
    ul.innerHTML = '';
    for (const it of items) {
      const li = document.createElement('li');
      li.dataset.code = it.code; li.textContent = it.label;
      li.addEventListener('click', () => {
        $('#indicator').value = it.code; $('#indicator-chip').textContent = it.label;
        $('#indicator-q').value = ''; ul.hidden = true; ul.innerHTML = '';
      });
      ul.appendChild(li);
    }
    ul.hidden = items.length === 0;
  }, 120);
});
$('#apply').addEventListener('click', apply);
apply();
"""


def table_data(w: World, country: str, indicator: str, freq: str, start: str, end: str) -> dict:
    """What the table builder shows for these filters (also how the suite derives answers)."""
    country = country if country in BY_CODE else DEFAULTS["country"]
    indicator = indicator if indicator in INDICATORS else DEFAULTS["indicator"]
    freq = freq if freq in FREQUENCIES else "M"
    nd = 0 if indicator == "exports" else 1
    rows = [(p, fmt(v, nd)) for p, v in w.rows(country, indicator, freq, start or "0000", end or "9999")]
    caption = (
        f"{INDICATORS[indicator]} — {BY_CODE[country].option}, {FREQUENCIES[freq]}, "
        f"{start or 'start'} to {end or 'end'}"
    )
    return {"caption": caption, "rows": rows, "summary": w.summary(country, indicator, freq, start, end)}


def _select(id_: str, options: list[tuple[str, str]], chosen: str) -> str:
    opts = "".join(
        f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(t)}</option>' for v, t in options
    )
    return f'<select id="{id_}" name="{id_}">{opts}</select>'


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    countries = [(c.code, c.option) for c in COUNTRIES]

    @main.get("/stats", response_class=HTMLResponse)
    def stats_page(
        country: str = DEFAULTS["country"],
        indicator: str = DEFAULTS["indicator"],
        freq: str = DEFAULTS["freq"],
        from_: str = Query(DEFAULTS["from"], alias="from"),
        to: str = DEFAULTS["to"],
    ) -> str:
        indicator = indicator if indicator in INDICATORS else "cpi"
        body = f"""
<h1>Table builder: economic indicators</h1>
<p class="lead">Choose a country, frequency and indicator, restrict the period if needed, then press
<b>Apply</b>. Results can be downloaded as CSV.</p>
<div class="card filters"><h2>Filters</h2>
<div class="row">
  <div style="width:260px"></div>
  <label class="f">Country / area{_select("country", countries, country)}</label>
  <label class="f">Frequency{_select("freq", list(FREQUENCIES.items()), freq)}</label>
  <div class="ac"><label class="f">Indicator
    <input type="text" id="indicator-q" autocomplete="off" placeholder="Start typing an indicator…" style="width:340px"></label>
    <ul id="suggestions" hidden></ul>
    <input type="hidden" id="indicator" value="{esc(indicator)}">
  </div>
  <label class="f">From<input type="date" id="date-from" value="{esc(from_)}"></label>
  <label class="f">To<input type="date" id="date-to" value="{esc(to)}"></label>
  <button id="apply" type="button">Apply</button>
  <a id="csv" class="btn secondary" href="/stats/api/table.csv">Download CSV</a>
</div>
<div style="margin-left:278px">Selected indicator: <span class="chip" id="indicator-chip">{esc(INDICATORS[indicator])}</span>
 <span class="muted" id="status"></span></div>
</div>
<div style="position:relative">
<div class="card tablewrap"><div id="caption"></div>
<table class="data" id="results"><thead><tr><th>Period</th><th class="num">Value</th></tr></thead>
<tbody></tbody>
<tfoot>
<tr><td>Period average</td><td class="num" id="avg"></td></tr>
<tr><td>Minimum</td><td class="num" id="min"></td></tr>
<tr><td>Maximum</td><td class="num" id="max"></td></tr>
<tr><td>Observations</td><td class="num" id="count"></td></tr>
</tfoot></table></div>
<div class="side card"><h2>About these data</h2><p class="note">Monthly series are compiled from national
sources. Quarterly and annual values are simple averages of the months they contain, rounded to one
decimal. The period average in the table footer is computed over the rows shown.</p></div>
</div>"""
        script = (
            TABLE_JS.replace("__INDICATORS__", js_data(INDICATORS))
            .replace("__COUNTRIES__", js_data(dict(countries)))
            .replace("__FREQ__", js_data(FREQUENCIES))
        )
        return page("Table builder", body, active="/stats", extra_css=EXTRA_CSS, script=script)

    @main.get("/stats/api/table")
    def api_table(
        country: str = "AU",
        indicator: str = "cpi",
        freq: str = "M",
        from_: str = Query("", alias="from"),
        to: str = "",
    ) -> JSONResponse:
        return JSONResponse(table_data(ctx.world, country, indicator, freq, from_, to))

    @main.get("/stats/api/table.csv")
    def api_csv(
        country: str = "AU",
        indicator: str = "cpi",
        freq: str = "M",
        from_: str = Query("", alias="from"),
        to: str = "",
    ) -> PlainTextResponse:
        d = table_data(ctx.world, country, indicator, freq, from_, to)
        lines = ["period,value"] + [f'{p},"{v}"' for p, v in d["rows"]]
        return PlainTextResponse(
            "\n".join(lines) + "\n",
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{country}-{indicator}-{freq}.csv"'},
        )

    @main.get("/stats/api/suggest")
    def api_suggest(q: str = "") -> JSONResponse:
        ql = q.strip().lower()
        items = [{"code": k, "label": v} for k, v in INDICATORS.items() if ql and ql in v.lower()]
        return JSONResponse(items)

    @main.get("/stats/compare", response_class=HTMLResponse)
    def compare_page() -> str:
        body = f"""
<h1>Compare two countries</h1>
<p class="lead">Pick two countries and an indicator; the table lists both monthly series, the difference
(first minus second, percentage points) and which is higher.</p>
<div class="card"><div class="row">
  <div style="width:360px"></div>
  <label class="f">First country{_select("country-a", countries, "AU")}</label>
  <label class="f">Second country{_select("country-b", countries, "BR")}</label>
  <label class="f">Indicator{_select("cmp-indicator", [(k, v) for k, v in INDICATORS.items() if k != "exports"], "cpi")}</label>
  <button id="cmp-apply" type="button">Apply</button>
</div></div>
<div class="card tablewrap"><div id="caption"></div>
<table class="data" id="cmp"><thead><tr><th>Period</th><th class="num" id="col-a">First</th>
<th class="num" id="col-b">Second</th><th class="num">Difference</th><th>Higher</th></tr></thead><tbody></tbody></table></div>"""
        script = """
const $ = (s) => document.querySelector(s);
async function apply() {
  const p = new URLSearchParams({a: $('#country-a').value, b: $('#country-b').value, indicator: $('#cmp-indicator').value});
  const d = await (await fetch('/stats/api/compare?' + p)).json();
  $('#caption').textContent = d.caption; $('#col-a').textContent = d.a; $('#col-b').textContent = d.b;
  const body = $('#cmp tbody'); body.innerHTML = '';
  for (const r of d.rows) {
    const tr = document.createElement('tr'); tr.dataset.period = r[0];
    tr.innerHTML = '<td class="period"></td><td class="a num"></td><td class="b num"></td><td class="diff num"></td><td class="higher"></td>';
    r.forEach((v, i) => { tr.children[i].textContent = v; });
    body.appendChild(tr);
  }
}
$('#cmp-apply').addEventListener('click', apply);
apply();
"""
        return page("Compare countries", body, active="/stats/compare", extra_css=EXTRA_CSS, script=script)

    @main.get("/stats/api/compare")
    def api_compare(a: str = "AU", b: str = "BR", indicator: str = "cpi") -> JSONResponse:
        a = a if a in BY_CODE else "AU"
        b = b if b in BY_CODE else "BR"
        indicator = indicator if indicator in INDICATORS else "cpi"
        rows = compare_table(ctx.world, a, b, indicator)
        caption = f"{INDICATORS[indicator]}: {BY_CODE[a].option} vs {BY_CODE[b].option}"
        return JSONResponse(
            {"caption": caption, "a": BY_CODE[a].option, "b": BY_CODE[b].option, "rows": rows}
        )


def compare_table(w: World, a: str, b: str, indicator: str) -> list[list[str]]:
    """Rows of the comparison table as shown: period, first, second, difference, higher."""
    rows = []
    for p, va in w.rows(a, indicator, "M", "0", "9"):
        vb = w.value(b, indicator, p)
        higher = BY_CODE[a].option if va > vb else BY_CODE[b].option if vb > va else "equal"
        rows.append([p, fmt(va), fmt(vb), f"{va - vb:+.1f}", higher])
    return rows
