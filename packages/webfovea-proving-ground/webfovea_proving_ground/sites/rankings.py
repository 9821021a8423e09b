"""City rankings whose numbers are drawn by an obfuscating web font.

Scores and ranks are written in the DOM as private-use characters; the font built in
`fonts.py` draws them as digits under a seeded shuffle. `decode_pua(text, seed)` is what a
person reading the screenshot would see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from .context import SiteContext
from .fonts import build_pua_font, decode_pua, encode_pua, require_font_source
from .layout import esc, page

__all__ = ["decode_pua", "encode_pua", "ranking", "register", "City"]

CITIES = [
    ("Vienna", "Austria"),
    ("Copenhagen", "Denmark"),
    ("Zurich", "Switzerland"),
    ("Melbourne", "Australia"),
    ("Calgary", "Canada"),
    ("Geneva", "Switzerland"),
    ("Sydney", "Australia"),
    ("Vancouver", "Canada"),
    ("Osaka", "Japan"),
    ("Auckland", "New Zealand"),
    ("Helsinki", "Finland"),
    ("Oslo", "Norway"),
    ("Stockholm", "Sweden"),
    ("Hamburg", "Germany"),
    ("Munich", "Germany"),
    ("Amsterdam", "Netherlands"),
    ("Lisbon", "Portugal"),
    ("Madrid", "Spain"),
    ("Barcelona", "Spain"),
    ("Prague", "Czechia"),
    ("Tallinn", "Estonia"),
    ("Dublin", "Ireland"),
    ("Brussels", "Belgium"),
    ("Paris", "France"),
    ("Lyon", "France"),
    ("Milan", "Italy"),
    ("Tokyo", "Japan"),
    ("Seoul", "Korea, Rep."),
    ("Singapore", "Singapore"),
    ("Taipei", "Taiwan"),
    ("Montreal", "Canada"),
    ("Toronto", "Canada"),
    ("Boston", "United States"),
    ("Chicago", "United States"),
    ("Santiago", "Chile"),
    ("Montevideo", "Uruguay"),
    ("Buenos Aires", "Argentina"),
    ("Sao Paulo", "Brazil"),
    ("Mexico City", "Mexico"),
    ("Lima", "Peru"),
    ("Bogota", "Colombia"),
    ("Cape Town", "South Africa"),
    ("Nairobi", "Kenya"),
    ("Accra", "Ghana"),
    ("Casablanca", "Morocco"),
    ("Cairo", "Egypt"),
    ("Istanbul", "Türkiye"),
    ("Athens", "Greece"),
    ("Warsaw", "Poland"),
    ("Budapest", "Hungary"),
    ("Bucharest", "Romania"),
    ("Hanoi", "Viet Nam"),
    ("Bangkok", "Thailand"),
    ("Kuala Lumpur", "Malaysia"),
    ("Jakarta", "Indonesia"),
    ("Manila", "Philippines"),
    ("Mumbai", "India"),
    ("Dhaka", "Bangladesh"),
    ("Karachi", "Pakistan"),
    ("Lagos", "Nigeria"),
]


@dataclass(frozen=True)
class City:
    rank: int
    name: str
    country: str
    score: str  # e.g. "87.4" (plain digits; the page shows them through the font)
    change: int


@lru_cache(maxsize=8)
def ranking(seed: int) -> list[City]:
    rng = random.Random(f"rankings-{seed}")
    names = list(CITIES)
    rng.shuffle(names)
    scores = sorted((round(rng.uniform(42.0, 98.9), 1) for _ in names), reverse=True)
    # Ties would make "the score of X" ambiguous on screen; nudge them apart.
    for i in range(1, len(scores)):
        if scores[i] >= scores[i - 1]:
            scores[i] = round(scores[i - 1] - 0.1, 1)
    return [
        City(i + 1, n, c, f"{s:.1f}", rng.randint(-6, 6))
        for i, ((n, c), s) in enumerate(zip(names, scores, strict=True))
    ]


CSS = """
@font-face { font-family: "RankDigits"; src: url("/rankings/digits.ttf") format("truetype"); font-display: block; }
.pua { font-family: "RankDigits", "DejaVu Sans", sans-serif; }
.tools { display: flex; gap: 18px; align-items: flex-end; justify-content: flex-end; }
#rank-table { max-width: 1180px; margin-left: auto; margin-right: 220px; }
"""

JS = """
const f = document.querySelector('#filter');
f.addEventListener('keyup', () => {
  const q = f.value.trim().toLowerCase();
  let shown = 0;
  document.querySelectorAll('#rank-table tbody tr').forEach(tr => {
    const hit = !q || tr.dataset.name.toLowerCase().includes(q) || tr.dataset.country.toLowerCase().includes(q);
    tr.hidden = !hit; if (hit) shown++;
  });
  document.querySelector('#shown').textContent = shown + ' cities shown';
});
"""


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    require_font_source()

    @main.get("/rankings/digits.ttf")
    def font() -> Response:
        return Response(build_pua_font(ctx.seed), media_type="font/ttf")

    @main.get("/rankings", response_class=HTMLResponse)
    def rankings_page() -> str:
        rows = "".join(
            f'<tr data-name="{esc(c.name)}" data-country="{esc(c.country)}">'
            f'<td class="rank pua">{encode_pua(str(c.rank), ctx.seed)}</td><td class="city">{esc(c.name)}</td>'
            f'<td>{esc(c.country)}</td><td class="score num pua">{encode_pua(c.score, ctx.seed)}</td>'
            f'<td class="change num pua">{encode_pua(f"{c.change:+d}", ctx.seed)}</td></tr>'
            for c in ranking(ctx.seed)
        )
        body = f"""
<h1>City Liveability Index 2025</h1>
<p class="lead">Sixty cities scored from 0 to 100 on stability, health care, culture, education and
infrastructure. Change is the movement in rank since 2024.</p>
<div class="card"><div class="tools"><span class="muted" id="shown">{len(CITIES)} cities shown</span>
<label class="f">Filter by city or country<input type="search" id="filter" autocomplete="off"
 placeholder="e.g. Lisbon" style="width:320px"></label></div></div>
<div class="card" id="rank-table"><table class="data"><thead><tr><th>Rank</th><th>City</th><th>Country</th>
<th class="num">Score</th><th class="num">Change</th></tr></thead><tbody>{rows}</tbody></table></div>"""
        return page("City rankings", body, active="/rankings", extra_css=CSS, script=JS)
