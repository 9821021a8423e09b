"""A filings viewer: annual reports shown in a cross-origin iframe, far too long to scroll.

Each report is ~90,000 px of prose; the figures tasks ask for sit near its end, so
scrolling there takes well over 80 scroll steps while find-in-page reaches them at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from .context import SiteContext
from .layout import esc, frame_page, page

WORDS = (
    "group revenue margin segment customers market demand pricing investment capacity operations "
    "sustainability governance risk board committee strategy growth efficiency digital supply chain "
    "production volumes contracts region portfolio cost inflation currency hedging liquidity financing "
    "dividend shareholders employees safety quality innovation development outlook guidance performance "
    "quarter year compared previous period increased decreased stable continued improved reflecting "
    "higher lower mainly driven by offset partly strong weak international domestic logistics energy "
    "emissions reporting framework policy assessment internal control audit accounting principles"
).split()


@dataclass(frozen=True)
class Filing:
    doc_id: str
    company: str
    title: str
    facts: dict[str, str]  # fact key -> value shown in the document


COMPANIES = [
    ("nt-2024", "Norrland Timber AB"),
    ("hm-2024", "Halvorsen Maritime ASA"),
    ("km-2024", "Kestrel Minerals plc"),
]
# (fact key, sentence before, sentence after); the phrase before the value is unique in the text.
FACT_SENTENCES = {
    "headcount": ("The total headcount at year end was", "full-time equivalents."),
    "revenue": ("Net revenue for the financial year amounted to", "million."),
    "dividend": ("The Board proposes a dividend per share of", "for the year."),
    "scope1": ("Direct greenhouse gas emissions (scope 1) were", "tonnes CO2e."),
    "market": ("Our largest export market by value was", "during the year."),
}
FACT_POSITIONS = {"headcount": 0.93, "revenue": 0.88, "dividend": 0.96, "scope1": 0.90, "market": 0.85}
MARKETS = ["Kenya", "Chile", "Viet Nam", "Peru", "Mexico", "Egypt", "Indonesia", "Norway", "Japan"]


@lru_cache(maxsize=8)
def filings(seed: int) -> dict[str, Filing]:
    rng = random.Random(f"filings-{seed}")
    out = {}
    markets = rng.sample(MARKETS, len(COMPANIES))
    for (doc_id, company), market in zip(COMPANIES, markets, strict=True):
        facts = {
            "headcount": f"{rng.randint(1200, 9800):,}",
            "revenue": f"{rng.randint(2000, 60000):,}",
            "dividend": f"{rng.randint(2, 48) / 4:.2f}",
            "scope1": f"{rng.randint(10000, 900000):,}",
            "market": market,
        }
        out[doc_id] = Filing(doc_id, company, f"{company} — Annual Report 2024", facts)
    return out


@lru_cache(maxsize=8)
def document_html(seed: int, doc_id: str, paragraphs: int = 720) -> str:
    f = filings(seed)[doc_id]
    rng = random.Random(f"doc-{seed}-{doc_id}")
    at = {round(pos * paragraphs): key for key, pos in FACT_POSITIONS.items()}
    parts = [f"<h1>{esc(f.title)}</h1>"]
    for i in range(paragraphs):
        if i % 40 == 0:
            parts.append(f"<h2>Note {i // 40 + 1}. {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}</h2>")
        sentences = []
        for _ in range(rng.randint(4, 6)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(10, 18))]
            sentences.append(" ".join(words).capitalize() + ".")
        if i in at:
            key = at[i]
            before, after = FACT_SENTENCES[key]
            sentences.insert(
                2, f'{before} <span class="fact" id="fact-{key}">{esc(f.facts[key])}</span> {after}'
            )
        parts.append("<p>" + " ".join(sentences) + "</p>")
    return "\n".join(parts)


DOC_CSS = """
body { background: #fff; } .doc { max-width: 1300px; margin: 0 auto; padding: 24px 40px; line-height: 1.7; font-size: 16px; }
.doc h1 { font-size: 24px; } .doc h2 { font-size: 18px; color: #14507f; margin-top: 28px; }
"""
VIEWER_CSS = """
.viewer { display: flex; gap: 18px; }
.doclist { width: 300px; flex: none; }
.doclist a { display: block; padding: 10px 12px; border-radius: 4px; text-decoration: none; margin-bottom: 4px; }
.doclist a.current { background: #0b5cab; color: #fff; }
#doc { flex: 1; height: 780px; border: 1px solid #b9c6d3; border-radius: 6px; background: #fff; }
"""


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/filings", response_class=HTMLResponse)
    def viewer(doc: str = "") -> str:
        docs = filings(ctx.seed)
        current = doc if doc in docs else ""
        links = "".join(
            f'<a class="doc{" current" if d == current else ""}" data-doc="{d}" href="/filings?doc={d}">'
            f"{esc(f.company)}<br><span class=muted>Annual report 2024</span></a>"
            for d, f in docs.items()
        )
        src = f"{ctx.frame_url}/docs/{current}" if current else f"{ctx.frame_url}/docs/"
        body = f"""
<h1>Company filings</h1>
<p class="lead">Annual reports as filed with the register. Choose a filing on the left; the document opens in
the viewer.</p>
<div class="viewer"><div class="card doclist"><h2>Filings</h2>{links}</div>
<iframe id="doc" title="Document viewer" src="{esc(src)}"></iframe></div>"""
        return page("Company filings", body, active="/filings", extra_css=VIEWER_CSS)

    @frame.get("/docs/", response_class=HTMLResponse)
    def no_doc() -> str:
        return frame_page(
            "Viewer",
            '<div class="doc"><p class="muted">Select a filing to view it.</p></div>',
            extra_css=DOC_CSS,
        )

    @frame.get("/docs/{doc_id}", response_class=HTMLResponse)
    def document(doc_id: str) -> HTMLResponse:
        if doc_id not in filings(ctx.seed):
            return HTMLResponse("<p>No such document.</p>", status_code=404)
        return HTMLResponse(
            frame_page(
                filings(ctx.seed)[doc_id].title,
                f'<div class="doc">{document_html(ctx.seed, doc_id)}</div>',
                extra_css=DOC_CSS,
            )
        )
