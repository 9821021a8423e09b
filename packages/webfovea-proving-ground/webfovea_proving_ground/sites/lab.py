"""The widget lab: small pages that reproduce feedback and settle failures.

Each page holds one widget whose visible change escapes a node-count/text-length detector
or arrives after a naive quiet window: tabs with equal-length panels, a counter and a date,
ARIA-only checkboxes and switches, a sortable table, a spin box, a slider, a drag-sortable
list, a resizable box, a small scrollable list box, a hover menu that opens after a delay,
an expanding panel whose CSS transition moves the button below it, selectable text, rows
whose Details button appears on hover (a click on the row opens another page), an editor
that handles ctrl+u. The
live pages (WebSocket form, autocomplete with a debounce, pages that never go quiet) are
in `lab_live.py`.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from . import lab_live
from .context import SiteContext
from .layout import esc, page

LAB_CSS = """
.lab { display: flex; gap: 28px; flex-wrap: wrap; align-items: flex-start; }
.lab .card { min-width: 420px; }
[role=tab] { height: 36px; padding: 0 18px; border: 1px solid #9aa7b4; background: #f4f6f9; color: #1d2733; }
[role=tab][aria-selected=true] { background: #0b5cab; color: #fff; }
.ck { display: inline-flex; gap: 10px; align-items: center; cursor: pointer; height: 34px; }
.ck .box { width: 22px; height: 22px; border: 2px solid #44505c; border-radius: 4px; }
[role=checkbox][aria-checked=true] .box { background: #0b5cab; border-color: #0b5cab; }
.sw { width: 46px; height: 24px; border-radius: 12px; background: #9aa7b4; position: relative; }
.sw::after { content: ''; position: absolute; left: 3px; top: 3px; width: 18px; height: 18px; border-radius: 9px; background: #fff; }
[role=switch][aria-checked=true] .sw { background: #1f8a4c; }
[role=switch][aria-checked=true] .sw::after { left: 25px; }
table.data th button { font: inherit; font-weight: bold; background: none; border: 0; color: #0b5cab; cursor: pointer; height: 28px; padding: 0; }
#sortable li { height: 40px; line-height: 40px; padding: 0 14px; margin: 4px 0; background: #f4f6f9; border: 1px solid #c9d2dc; cursor: grab; list-style: none; }
#listbox { height: 150px; width: 320px; overflow-y: auto; border: 1px solid #9aa7b4; }
#listbox div { height: 24px; line-height: 24px; padding: 0 10px; font-size: 14px; }
.menu { position: relative; display: inline-block; }
.menu > .top { height: 40px; padding: 0 20px; line-height: 40px; background: #14507f; color: #fff; cursor: default; }
.menu .sub { display: none; position: absolute; left: 0; top: 40px; background: #fff; border: 1px solid #9aa7b4; width: 220px; z-index: 3; }
.menu .sub.open { display: block; }
.menu .sub a { display: block; padding: 10px 14px; }
#options { height: 0; overflow: hidden; transition: height 600ms linear; background: #f4f6f9; }
#options.open { height: 240px; }
#options label { display: flex; align-items: center; gap: 10px; height: 60px; padding: 0 14px; font-size: 16px; }
.spin { display: inline-flex; align-items: center; gap: 8px; }
.spin button { width: 36px; padding: 0; }
"""


def _card(title: str, inner: str, wid: str = "") -> str:
    return f'<div class="card"{f" id={wid}" if wid else ""}><h2>{esc(title)}</h2>{inner}</div>'


TABS = """<div role="tablist" aria-label="Regions">
<button role="tab" id="tab-alpha" aria-selected="true" data-v="Alpha region: 1,234 tonnes">Alpha</button>
<button role="tab" id="tab-delta" aria-selected="false" data-v="Delta region: 7,305 tonnes">Delta</button>
<button role="tab" id="tab-gamma" aria-selected="false" data-v="Gamma region: 5,678 tonnes">Gamma</button></div>
<div role="tabpanel" id="panel" aria-label="Region figures"><p id="panel-text">Alpha region: 1,234 tonnes</p></div>"""
TABS_JS = """for (const t of document.querySelectorAll('[role=tab]')) t.addEventListener('click', () => {
  for (const o of document.querySelectorAll('[role=tab]')) o.setAttribute('aria-selected', String(o === t));
  document.getElementById('panel-text').textContent = t.dataset.v; });"""

COUNTER = """<p>Items in basket: <output id="count">1</output></p><button id="add">Add one</button>
<p>Delivery date: <span id="date">2024-05-01</span></p><button id="later">One day later</button>"""
COUNTER_JS = """document.getElementById('add').onclick = () => { const c = document.getElementById('count'); c.textContent = +c.textContent + 1; };
document.getElementById('later').onclick = () => { const d = document.getElementById('date');
  const t = new Date(d.textContent + 'T12:00:00Z'); t.setUTCDate(t.getUTCDate() + 1); d.textContent = t.toISOString().slice(0, 10); };"""

ARIA = """<div class="ck" role="checkbox" id="alerts" aria-checked="false" tabindex="0" aria-label="Email alerts"><span class="box"></span>Email alerts</div><br>
<div class="ck" role="switch" id="dark" aria-checked="false" tabindex="0" aria-label="Dark mode"><span class="sw"></span>Dark mode</div>"""
ARIA_JS = """for (const e of document.querySelectorAll('[role=checkbox], [role=switch]')) e.addEventListener('click', () => {
  e.setAttribute('aria-checked', e.getAttribute('aria-checked') === 'true' ? 'false' : 'true'); });"""

SORT_ROWS = [("Oslo", "412"), ("Lima", "187"), ("Pune", "955"), ("Kiev", "623")]
SORT = (
    '<table class="data" id="sort-table"><thead><tr><th><button id="by-name">City</button></th>'
    '<th><button id="by-value">Value</button></th></tr></thead><tbody>'
    + "".join(f'<tr><td class="name">{n}</td><td class="value">{v}</td></tr>' for n, v in SORT_ROWS)
    + "</tbody></table>"
)
SORT_JS = """const sortBy = (col) => { const tb = document.querySelector('#sort-table tbody');
  const rows = [...tb.rows].sort((a, b) => col ? (+a.cells[1].textContent) - (+b.cells[1].textContent)
    : a.cells[0].textContent.localeCompare(b.cells[0].textContent));
  for (const r of rows) tb.appendChild(r); };
document.getElementById('by-name').onclick = () => sortBy(0); document.getElementById('by-value').onclick = () => sortBy(1);"""

SPIN = """<div class="spin"><button id="down" aria-label="Decrease">−</button>
<div role="spinbutton" id="spin" aria-valuenow="1" aria-valuemin="0" aria-valuemax="9" aria-label="Copies" tabindex="0">1</div>
<button id="up" aria-label="Increase">+</button></div>
<p><label>Brightness <input type="range" id="slider" min="0" max="255" value="128" style="width:260px"></label></p>"""
SPIN_JS = """const sp = document.getElementById('spin'); const setv = (v) => { v = Math.max(0, Math.min(9, v));
  sp.setAttribute('aria-valuenow', v); sp.textContent = v; };
document.getElementById('up').onclick = () => setv(+sp.textContent + 1);
document.getElementById('down').onclick = () => setv(+sp.textContent - 1);"""

SORTABLE = (
    '<ul id="sortable" style="padding:0;width:300px">'
    + "".join(f'<li data-k="{k}">{k}</li>' for k in ("Wash", "Dry", "Fold", "Store"))
    + "</ul>"
)
SORTABLE_JS = """let drag = null; const ul = document.getElementById('sortable');
ul.addEventListener('mousedown', (e) => { drag = e.target.closest('li'); e.preventDefault(); });
document.addEventListener('mousemove', (e) => { if (!drag) return;
  const over = [...ul.children].find((li) => li !== drag && e.clientY > li.getBoundingClientRect().top &&
    e.clientY < li.getBoundingClientRect().bottom);
  if (over) { const r = over.getBoundingClientRect();
    ul.insertBefore(drag, e.clientY > r.top + r.height / 2 ? over.nextSibling : over); } });
document.addEventListener('mouseup', () => { drag = null; });"""

RESIZE = (
    """<textarea id="notes" style="width:300px;height:80px;resize:both" aria-label="Notes">Notes</textarea>"""
)

LISTBOX_ITEMS = [(f"Item {i:02d}", f"K{(i * 7919) % 9000 + 1000}") for i in range(1, 41)]
LISTBOX = (
    '<div id="listbox" role="listbox" aria-label="Warehouse codes">'
    + "".join(
        f'<div role="option" data-i="{i + 1}">{n} — code <b class="code">{c}</b></div>'
        for i, (n, c) in enumerate(LISTBOX_ITEMS)
    )
    + "</div>"
)

MENU = """<div class="menu" id="menu"><div class="top" id="menu-top">Data ▾</div>
<div class="sub" id="submenu"><a href="#" data-v="Exports: 48.2 bn">Exports</a><a href="#" data-v="Imports: 51.9 bn">Imports</a></div></div>
<p id="menu-result">Nothing chosen</p>"""
MENU_JS = """const menu = document.getElementById('menu'), sub = document.getElementById('submenu'); let mt = 0;
menu.addEventListener('mouseenter', () => { clearTimeout(mt); mt = setTimeout(() => sub.classList.add('open'), 220); });
menu.addEventListener('mouseleave', () => { clearTimeout(mt); mt = setTimeout(() => sub.classList.remove('open'), 300); });
for (const a of sub.querySelectorAll('a')) a.addEventListener('click', (e) => { e.preventDefault();
  document.getElementById('menu-result').textContent = a.dataset.v; sub.classList.remove('open'); });"""

ORDER = """<p>Base order: 3 licences, 120.00 EUR.</p><button id="show-options">Show options</button>
<div id="options"><label><input type="checkbox" id="gift"> Gift wrapping (+5.00)</label>
<label><input type="checkbox" id="insurance"> Insurance (+12.00)</label>
<label><input type="checkbox" id="express"> Express delivery (+20.00)</label>
<label><input type="checkbox" id="printed"> Printed invoice (+2.00)</label></div>
<p><button id="confirm">Confirm order</button></p><p id="confirmation"></p>"""
ORDER_JS = """document.getElementById('show-options').onclick = () => document.getElementById('options').classList.add('open');
document.getElementById('confirm').onclick = () => { let t = 120;
  for (const [id, p] of [['gift', 5], ['insurance', 12], ['express', 20], ['printed', 2]]) if (document.getElementById(id).checked) t += p;
  document.getElementById('confirmation').innerHTML = 'Order total: <b class="total">' + t.toFixed(2) + '</b> EUR'; };"""

ROWS = (
    '<table class="data" id="rows"><tbody>'
    + "".join(
        f'<tr data-id="{i}" style="cursor:pointer;height:48px"><td style="width:320px">Shipment {i}</td>'
        f'<td style="width:160px"><button class="details" data-id="{i}" style="visibility:hidden">Details</button></td></tr>'
        for i in range(1, 6)
    )
    + '</tbody></table><p id="row-dialog"></p>'
)
ROWS_JS = """// Hover intent: a row's Details button shows (and takes clicks) 150 ms after the pointer arrives;
// a click on the row itself opens the shipment's page.
for (const tr of document.querySelectorAll('#rows tr')) {
  const b = tr.querySelector('.details'); let t = 0;
  tr.addEventListener('mouseenter', () => { t = setTimeout(() => { b.style.visibility = 'visible'; }, 150); });
  tr.addEventListener('mouseleave', () => { clearTimeout(t); b.style.visibility = 'hidden'; });
  tr.addEventListener('click', (e) => { if (e.target.closest('.details')) return; location.href = '/lab/rows/' + tr.dataset.id; });
  b.addEventListener('click', () => { document.getElementById('row-dialog').innerHTML =
    'Shipment ' + tr.dataset.id + ' — customs code <b class="code">' + row_code(+tr.dataset.id) + '</b>'; });
}
function row_code(i) { return 'CC-' + (i * 4721 % 9000 + 1000); }"""

EDITOR = """<div id="editor" contenteditable="true" style="width:500px;height:90px;border:1px solid #9aa7b4;padding:8px">Draft text</div>
<p id="editor-log">No formatting</p>"""
EDITOR_JS = """document.getElementById('editor').addEventListener('keydown', (e) => {
  if (e.ctrlKey && e.key.toLowerCase() === 'u') { e.preventDefault(); document.getElementById('editor-log').textContent = 'Underline on'; } });"""

TEXT = """<p id="para">The harbour authority recorded 1,204 arrivals in March, up from 1,130 in February.
Most vessels were container ships.</p>"""

WIDGETS: dict[str, tuple[str, str, str]] = {
    # path: (title, body, script)
    "tabs": ("Tabs", _card("Regional figures", TABS), TABS_JS),
    "counter": ("Counter and date", _card("Basket", COUNTER), COUNTER_JS),
    "aria": ("ARIA checkboxes", _card("Settings", ARIA), ARIA_JS),
    "sort": ("Sortable table", _card("Cities", SORT), SORT_JS),
    "spin": ("Spin box and slider", _card("Print", SPIN), SPIN_JS),
    "sortable": ("Sortable list", _card("Steps", SORTABLE), SORTABLE_JS),
    "resize": ("Resizable box", _card("Notes", RESIZE), ""),
    "listbox": ("Scrollable list box", _card("Codes", LISTBOX), ""),
    "menu": ("Hover menu", _card("Menu", MENU), MENU_JS),
    "order": ("Order options", _card("Order", ORDER), ORDER_JS),
    "text": ("Text", _card("Harbour report", TEXT), ""),
    "rows": ("Shipments", _card("Shipments", ROWS), ROWS_JS),
    "editor": ("Editor", _card("Draft", EDITOR), EDITOR_JS),
}


def lab_page(title: str, body: str, script: str) -> str:
    return page(
        f"Lab: {title}",
        f'<h1>{esc(title)}</h1><div class="lab">{body}</div>',
        active="/lab",
        extra_css=LAB_CSS,
        script=script,
    )


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/lab", response_class=HTMLResponse)
    def index() -> str:
        items = "".join(f'<li><a href="/lab/{k}">{esc(v[0])}</a></li>' for k, v in WIDGETS.items())
        items += "".join(f'<li><a href="/lab/{k}">{esc(v)}</a></li>' for k, v in lab_live.PAGES.items())
        return lab_page("Widget lab", f'<div class="card"><ul id="widgets">{items}</ul></div>', "")

    for key, (title, body, script) in WIDGETS.items():
        main.add_api_route(
            f"/lab/{key}", _static(title, body, script), response_class=HTMLResponse, methods=["GET"]
        )

    @main.get("/lab/rows/{rid}", response_class=HTMLResponse)
    def row_page(rid: int) -> str:
        return lab_page(f"Shipment {rid}", _card("Shipment", f"<p>Shipment {rid} is in transit.</p>"), "")

    lab_live.register(ctx, main, frame, lab_page)


def _static(title: str, body: str, script: str):  # noqa: ANN202 - a FastAPI endpoint
    def endpoint() -> str:
        return lab_page(title, body, script)

    return endpoint
