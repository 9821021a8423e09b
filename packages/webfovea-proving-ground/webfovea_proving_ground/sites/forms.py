"""Forms where typing must really reach the field.

- `/register`: the company search box lies under a transparent tracking layer, so a click
  on it focuses nothing and typed keys go nowhere.
- `/requests`: a date input (a click in its middle lands on the year segment) and a
  contenteditable notes field covered by a clickable placeholder.
- `/publications`: pressing the mouse in the search box opens a "search tips" popover that
  takes the focus away.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse

from .context import SiteContext
from .data import token
from .layout import esc, page

PREFIXES = [
    "Nordic",
    "Halvorsen",
    "Baltic",
    "Arctic",
    "Fjord",
    "Polar",
    "Granite",
    "Kestrel",
    "Birch",
    "Harbour",
]
SUFFIXES = [
    "Maritime",
    "Alloys",
    "Foods",
    "Wind Power",
    "Logistics",
    "Timber",
    "Textiles",
    "Data",
    "Minerals",
    "Dairy",
]
FORMS = ["AS", "ASA", "AB", "Oy", "ApS"]
CITIES = ["Oslo", "Bergen", "Trondheim", "Stavanger", "Tromsø", "Göteborg", "Malmö", "Aarhus", "Turku"]
DATASETS = {
    "cpi-m": "Consumer prices, monthly",
    "trade-q": "Merchandise trade, quarterly",
    "lfs-a": "Labour force survey, annual",
}


@dataclass(frozen=True)
class Company:
    name: str
    reg: str
    city: str
    founded: int


@lru_cache(maxsize=8)
def companies(seed: int) -> list[Company]:
    rng = random.Random(f"register-{seed}")
    names: set[str] = set()
    out = []
    while len(out) < 90:
        name = f"{rng.choice(PREFIXES)} {rng.choice(SUFFIXES)} {rng.choice(FORMS)}"
        if name in names:
            continue
        names.add(name)
        reg = f"{rng.randint(910, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"
        out.append(Company(name, reg, rng.choice(CITIES), rng.randint(1921, 2022)))
    return sorted(out, key=lambda c: c.name)


def search_companies(seed: int, q: str) -> list[Company]:
    ql = q.strip().lower()
    return [c for c in companies(seed) if ql and ql in c.name.lower()]


def request_reference(seed: int, dataset: str, date: str, notes: str) -> str:
    return "REQ-" + token("request", seed, dataset, date, " ".join(notes.split()), n=6)


TOPICS = [
    "Inflation report",
    "Labour market bulletin",
    "Trade statistics yearbook",
    "Regional accounts",
    "Housing price index",
    "Energy balance",
    "Population projections",
    "Tourism statistics",
]


@lru_cache(maxsize=8)
def publications(seed: int) -> list[tuple[str, str, str]]:
    """(catalogue number, title, date), newest first."""
    rng = random.Random(f"pubs-{seed}")
    out = []
    for topic in TOPICS:
        for year in (2022, 2023, 2024):
            for part in (1, 2):
                out.append(
                    (
                        f"PUB-{rng.randint(1000, 9999)}",
                        f"{topic} {year}:{part}",
                        f"{year}-{rng.randint(1, 6) + 6 * (part - 1):02d}-{rng.randint(1, 28):02d}",
                    )
                )
    return sorted(out, key=lambda p: p[2], reverse=True)


def search_publications(seed: int, q: str) -> list[tuple[str, str, str]]:
    words = q.lower().split()
    return [p for p in publications(seed) if words and all(w in p[1].lower() for w in words)]


FORMS_CSS = """
.searchrow { position: relative; display: inline-flex; gap: 10px; align-items: flex-end; margin-left: 520px; }
#search-shield { position: absolute; left: 0; top: 0; width: 360px; height: 62px; z-index: 10; background: transparent; }
#notes { min-height: 110px; width: 620px; border: 1px solid #9aa7b4; border-radius: 4px; padding: 8px 10px; background: #fff; }
.noteswrap { position: relative; width: 620px; }
.ph { position: absolute; inset: 0; padding: 9px 11px; color: #8a96a3; background: #fbfcfd; border-radius: 4px; cursor: text; }
#tips { position: absolute; left: 0; top: 66px; width: 420px; background: #fffbe6; border: 1px solid #e6c200;
        padding: 12px 14px; border-radius: 4px; z-index: 10; }
"""


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/register", response_class=HTMLResponse)
    def register_page(q: str = "") -> str:
        hits = search_companies(ctx.seed, q)
        if q.strip():
            rows = "".join(
                f'<tr data-reg="{esc(c.reg)}"><td class="name">{esc(c.name)}</td><td class="reg">{esc(c.reg)}</td>'
                f'<td class="city">{esc(c.city)}</td><td class="num">{c.founded}</td></tr>'
                for c in hits
            )
            summary = f"{len(hits)} companies match “{esc(q.strip())}”: " + "; ".join(
                esc(c.name) for c in hits
            )
            results = f"""<div class="card" style="max-width:1100px;margin-left:520px"><p id="result-summary">{summary}</p>
<table class="data" id="reg-results"><thead><tr><th>Name</th><th>Registration no.</th><th>City</th>
<th class="num">Founded</th></tr></thead><tbody>{rows}</tbody></table></div>"""
        else:
            results = '<div class="card" style="max-width:1100px;margin-left:520px"><p id="result-summary">Enter a name to search the register.</p></div>'
        body = f"""
<h1>Company register</h1>
<p class="lead">Search registered companies by name. Press Enter or click Search.</p>
<div class="card"><form id="reg-search" action="/register" method="get"><div class="searchrow">
<label class="f">Company name<input type="text" id="q" name="q" autocomplete="off" style="width:360px"></label>
<button id="reg-go" type="submit">Search</button>
<div id="search-shield" title=""></div></div></form></div>
{results}"""
        return page("Company register", body, active="/register", extra_css=FORMS_CSS)

    @main.get("/requests", response_class=HTMLResponse)
    def requests_page() -> str:
        options = "".join(f'<option value="{k}">{esc(v)}</option>' for k, v in DATASETS.items())
        body = f"""
<h1>Request a data extract</h1>
<p class="lead">Order a custom extract. Choose the dataset and the delivery date, describe what you need,
and submit; a reference number is shown on confirmation.</p>
<div class="card" style="margin-left:520px;max-width:900px"><div style="display:flex;flex-direction:column;gap:16px">
<label class="f">Dataset<select id="dataset">{options}</select></label>
<label class="f">Delivery date<input type="date" id="delivery" style="width:240px"></label>
<div><div class="f" style="font-size:13px;font-weight:bold;color:#44505c;margin-bottom:5px">Notes</div>
<div class="noteswrap"><div id="notes" contenteditable="true"></div>
<div class="ph" id="notes-ph">Describe the extract you need…</div></div></div>
<div><button id="submit-request" type="button">Submit request</button></div>
<div id="confirmation" class="muted"></div></div></div>"""
        script = """
const $ = (s) => document.querySelector(s);
// The placeholder is a real element over the editor: it hides once there is text.
$('#notes').addEventListener('input', () => { $('#notes-ph').hidden = $('#notes').textContent.trim() !== ''; });
$('#submit-request').addEventListener('click', async () => {
  const p = new URLSearchParams({dataset: $('#dataset').value, date: $('#delivery').value, notes: $('#notes').textContent});
  const d = await (await fetch('/requests/api/submit?' + p)).json();
  $('#confirmation').innerHTML = d.ok ? 'Request received. Reference: <b class="ref"></b>' : '<span class="err"></span>';
  $('#confirmation').querySelector(d.ok ? '.ref' : '.err').textContent = d.ok ? d.ref : d.error;
});
"""
        return page("Data requests", body, active="/requests", extra_css=FORMS_CSS, script=script)

    @main.get("/requests/api/submit")
    def submit(dataset: str = "", date: str = "", notes: str = "") -> JSONResponse:
        if dataset not in DATASETS:
            return JSONResponse({"ok": False, "error": "Choose a dataset."})
        if not date:
            return JSONResponse({"ok": False, "error": "Choose a delivery date."})
        if not notes.strip():
            return JSONResponse({"ok": False, "error": "Describe the extract in the notes."})
        return JSONResponse({"ok": True, "ref": request_reference(ctx.seed, dataset, date, notes)})

    @main.get("/publications", response_class=HTMLResponse)
    def publications_page(q: str = "") -> str:
        items = search_publications(ctx.seed, q) if q.strip() else publications(ctx.seed)[:8]
        heading = f"Results for “{esc(q.strip())}”" if q.strip() else "Latest publications"
        lis = (
            "".join(
                f'<li class="pub" data-id="{pid}"><b class="title">{esc(t)}</b> · <span class="pubid">{pid}</span>'
                f' · <span class="muted">{d}</span></li>'
                for pid, t, d in items
            )
            or "<li>No publications found.</li>"
        )
        body = f"""
<h1>Publications</h1>
<p class="lead">Reports, bulletins and yearbooks. Search by title.</p>
<div class="card"><form action="/publications" method="get"><div class="searchrow">
<label class="f">Search publications<input type="search" id="pub-q" name="q" autocomplete="off" style="width:360px"></label>
<button type="submit">Search</button>
<div id="tips" hidden><b>Search tips</b><p>Use whole words, e.g. “inflation report”.</p>
<button type="button" id="tips-close" class="secondary">Got it</button></div></div></form></div>
<div class="card" style="margin-left:520px;max-width:1000px"><h2 id="pub-heading">{heading}</h2><ul id="pub-results">{lis}</ul></div>"""
        script = """
const q = document.querySelector('#pub-q');
// A help popover grabs the focus whenever the mouse is pressed in the box.
q.addEventListener('mousedown', (e) => { e.preventDefault(); const t = document.querySelector('#tips'); t.hidden = false; document.querySelector('#tips-close').focus(); });
document.querySelector('#tips-close').addEventListener('click', () => { document.querySelector('#tips').hidden = true; });
"""
        return page("Publications", body, active="/publications", extra_css=FORMS_CSS, script=script)
