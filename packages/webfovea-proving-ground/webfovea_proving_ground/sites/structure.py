"""Pages where structured (snapshot) observation is tested: `/struct/...`.

- `/struct/stations`: a station register whose snapshot exceeds 500 KB (3,000 rows), the
  answer row in the middle: truncation must keep the page usable and `find` must reach it.
- `/struct/widgets`: one widget in an open shadow root (the snapshot lists it) and one in a
  closed shadow root (it does not: only look/locate and a point reach it).
- `/struct/seat`: a button that renames itself when clicked (its old ref is stale).
- `/struct/reports` → `/struct/report/N`: a flow that relies on going back: the list shows the
  reference of the report last opened, only after returning to it.
- `/struct/contact`: labels drawn next to the wrong inputs (the markup's labels are right).
"""

from __future__ import annotations

import random
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from .context import SiteContext
from .data import token
from .layout import esc, page

STATION_ROWS = 3000
ANSWER_ROW = 1500  # the answer row sits in the middle of the page
REPORTS = ("North", "Harbour", "Airport", "Valley")


@lru_cache(maxsize=4)
def stations(seed: int) -> list[tuple[str, str, list[str]]]:
    rng = random.Random(f"struct-stations-{seed}")
    regions = ("Alpine", "Coastal", "Delta", "Highland", "Lowland", "Plateau")
    return [
        (f"ST-{i:04d}", rng.choice(regions), [f"{rng.uniform(1, 99):.1f}" for _ in range(5)])
        for i in range(1, STATION_ROWS + 1)
    ]


def station_value(seed: int, row: int = ANSWER_ROW, year_index: int = 4) -> str:
    return stations(seed)[row - 1][2][year_index]


def seat_code(seed: int) -> str:
    return token("seat", seed, n=6).upper()


def report_ref(seed: int, name: str) -> str:
    return f"RPT-{token('report-' + name, seed, n=5).upper()}"


def contact_code(seed: int, email: str, phone: str) -> str:
    return f"C-{token('contact-' + email + '|' + phone, seed, n=6).upper()}"


YEARS = ("2019", "2020", "2021", "2022", "2023")


def _stations_page(seed: int) -> str:
    rows = "".join(
        f'<tr id="st-{i}"><td>{code}</td><td>{region}</td>'
        + "".join(f'<td class="num">{v}</td>' for v in vals)
        + "</tr>"
        for i, (code, region, vals) in enumerate(stations(seed), start=1)
    )
    head = (
        "<tr><th>Station</th><th>Region</th>" + "".join(f'<th class="num">{y}</th>' for y in YEARS) + "</tr>"
    )
    body = (
        f"<h1>Rain gauge register</h1><p class=lead>Annual rainfall (cm) for {STATION_ROWS:,} stations.</p>"
        f'<div class="card"><table class="data" id="stations"><thead>{head}</thead><tbody>{rows}</tbody>'
        "</table></div>"
    )
    return page("Rain gauge register", f"<main>{body}</main>", active="/struct/stations")


WIDGETS_JS = """
class OpenMeter extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({mode: 'open'});
    r.innerHTML = '<button id="show">Show meter reading</button> <output id="out"></output>';
    r.getElementById('show').addEventListener('click', () => { r.getElementById('out').textContent = 'Reading: ' + this.dataset.v; }); }
}
class ClosedVault extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<style>button{font:inherit;padding:8px 18px;background:#0b5cab;color:#fff;border:0;border-radius:4px}</style>'
      + '<button>Unlock vault code</button>';
    r.querySelector('button').addEventListener('click', () => {
      document.getElementById('vault-result').textContent = 'Vault code: ' + this.dataset.v; }); }
}
customElements.define('open-meter', OpenMeter);
customElements.define('closed-vault', ClosedVault);
"""

SEAT_JS = """
const seat = document.getElementById('seat');
seat.addEventListener('click', () => {
  if (seat.dataset.done) return;
  seat.dataset.done = '1'; seat.textContent = 'Seat 14C held - confirm below';
  document.getElementById('confirm').hidden = false; });
document.getElementById('confirm').addEventListener('click', () => {
  document.getElementById('seat-result').textContent = 'Booking code: ' + seat.dataset.code; });
"""

REPORTS_JS = """
const last = sessionStorage.getItem('last-report');
const show = () => { const v = sessionStorage.getItem('last-report');
  document.getElementById('last').textContent = v ? 'Last opened: ' + v : 'No report opened yet'; };
show(); window.addEventListener('pageshow', show);
"""

# Controls sit right of a 560 px margin: a click mapped at 3/4 of the intended point misses them.
AWAY_CSS = ".away { margin-left: 560px; max-width: 760px; }"

CONTACT_CSS = (
    AWAY_CSS
    + """
.grid { display: grid; grid-template-columns: 120px 300px; gap: 12px 16px; align-items: center; }
.grid .l1 { grid-row: 1; grid-column: 1; } .grid .l2 { grid-row: 2; grid-column: 1; }
.grid .i1 { grid-row: 1; grid-column: 2; } .grid .i2 { grid-row: 2; grid-column: 2; }
"""
)


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    seed = ctx.seed

    @main.get("/struct/stations", response_class=HTMLResponse)
    def stations_page() -> str:
        return ctx.cache.setdefault(("struct-stations", seed), _stations_page(seed))

    @main.get("/struct/widgets", response_class=HTMLResponse)
    def widgets() -> str:
        body = f"""<main class="away"><h1>Utility widgets</h1>
<div class="card"><h2>Meter</h2><open-meter data-v="{esc(token("meter", seed, n=4).upper())}"></open-meter></div>
<div class="card"><h2>Vault</h2><closed-vault data-v="{esc(token("vault", seed, n=4).upper())}"
 style="display:inline-block;min-width:200px;min-height:38px"></closed-vault>
<p id="vault-result">Locked</p></div></main>"""
        return page("Utility widgets", body, active="/struct/widgets", script=WIDGETS_JS, extra_css=AWAY_CSS)

    @main.get("/struct/seat", response_class=HTMLResponse)
    def seat() -> str:
        body = f"""<main class="away"><h1>Seat booking</h1><div class="card"><p>Flight WF 204, seat 14C.</p>
<button id="seat" data-code="{esc(seat_code(seed))}">Hold seat 14C</button>
<button id="confirm" class="secondary" hidden>Confirm booking</button><p id="seat-result"></p></div></main>"""
        return page("Seat booking", body, active="/struct/seat", script=SEAT_JS, extra_css=AWAY_CSS)

    @main.get("/struct/reports", response_class=HTMLResponse)
    def reports() -> str:
        items = "".join(
            f'<li><a id="rep-{n.lower()}" href="/struct/report/{n}">{n} station report</a></li>'
            for n in REPORTS
        )
        body = f"""<main class="away"><h1>Station reports</h1><div class="card"><ul id="reports">{items}</ul>
<p id="last"></p></div></main>"""
        return page("Station reports", body, active="/struct/reports", script=REPORTS_JS, extra_css=AWAY_CSS)

    @main.get("/struct/report/{name}", response_class=HTMLResponse)
    def report(name: str) -> str:
        ref = report_ref(seed, name)
        body = f"""<main><h1>{esc(name)} station report</h1><div class="card"><p>Filed under this station.
The reference is shown on the report list after you return to it.</p></div></main>"""
        # The marker says the reference is stored: going back before it would show nothing.
        script = (
            f"sessionStorage.setItem('last-report', {ref!r}); "
            "document.querySelector('main .card p').dataset.stored = '1';"
        )
        return page(f"{name} report", body, active="/struct/reports", script=script)

    @main.get("/struct/contact", response_class=HTMLResponse)
    def contact(email: str | None = None, phone: str | None = None) -> str:
        done = ""
        if email is not None and phone is not None:
            done = (
                f'<p id="contact-result">Saved: email {esc(email)}, phone {esc(phone)} — receipt '
                f"{esc(contact_code(seed, email, phone))}</p>"
            )
        body = f"""<main class="away"><h1>Contact details</h1><div class="card"><form id="contact" method="get">
<div class="grid"><label class="l1" for="email">Email</label><input class="i1" id="phone" name="phone">
<label class="l2" for="phone">Phone</label><input class="i2" id="email" name="email"></div>
<p><button id="save">Save</button></p></form>{done}</div></main>"""
        return page("Contact details", body, active="/struct/contact", extra_css=CONTACT_CSS)
