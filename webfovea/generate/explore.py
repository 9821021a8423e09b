"""Explore a site as a user would: follow its links breadth-first from the start page, staying
on the site (skills/site_notes.py's rule: the registrable domain, or on a loopback host the
first path segment), and read what each page shows — its visible tables and label/value lists,
and the table files it links to (CSV, XLSX…) (opened as the harness opens a download, documents/).

What is read is what a person sees: only rendered, visible elements (`checkVisibility`), their
`innerText`. A page whose digits are drawn by an obfuscating font shows other digits than its
text says; the generator cannot tell (docs/generate.md says so).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urljoin

from webfovea.browser.session import BrowserSession
from webfovea.skills.site_notes import site_key

# Links to these are downloads: read as documents, never navigated to
FILE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xls", ".ods", ".pdf")

# Tables and label/value lists of the rendered page, and its same-document links (in order).
_READ_JS = """() => {
  const vis = (e) => e.checkVisibility ? e.checkVisibility() : !!e.offsetParent;
  const txt = (e) => (e.innerText || '').replace(/\\s+/g, ' ').trim();
  const near = (e) => { let p = e; while (p) { let s = p.previousElementSibling;
      while (s) { if (/^H[1-4]$/.test(s.tagName)) return txt(s); const h = s.querySelector && s.querySelector('h1,h2,h3,h4');
        if (h) return txt(h); s = s.previousElementSibling; } p = p.parentElement; } return ''; };
  const tables = [...document.querySelectorAll('table')].filter(vis).map((t) => {
    const rows = [...t.rows].filter(vis).map((r) => [...r.cells].map(txt));
    const cap = t.caption ? txt(t.caption) : near(t);
    return {caption: cap, rows: rows.slice(0, 5001)};
  });
  const pairs = [...document.querySelectorAll('dl')].filter(vis).flatMap((dl) =>
    [...dl.querySelectorAll('dt')].map((dt) => [txt(dt), dt.nextElementSibling ? txt(dt.nextElementSibling) : '']));
  const links = [...document.querySelectorAll('a[href]')].filter(vis).map((a) => [a.href, txt(a)]);
  return JSON.stringify({title: document.title, h1: txt(document.querySelector('h1') || document.body).slice(0, 120),
                         tables, pairs, links});
}"""


@dataclass
class PageRead:
    url: str
    title: str
    path: list[str]  # the link texts clicked from the start page to reach it
    tables: list[dict[str, Any]] = field(default_factory=list)  # {caption, rows}
    pairs: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # (CSV URL, link text)


@dataclass
class Exploration:
    site: str
    start: str
    pages: list[PageRead] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # what could not be read, and why


async def _file_rows(page: Any, url: str) -> list[list[str]] | str:
    """The first sheet's rows of a linked table file as the document view reads it, or why it
    could not be read (a PDF's tables are not read: its pages are text, not cells)."""
    from webfovea.documents.document import open_document
    from webfovea.documents.limits import NotADocument, Refused

    try:
        resp = await page.request.get(url, timeout=20_000)
        body = await resp.body()
        doc = open_document(body, url.rsplit("/", 1)[-1].split("?")[0] or "file.csv")
    except (NotADocument, Refused) as e:
        return str(e)
    except Exception as e:
        return str(e).splitlines()[0][:200]
    if not doc.sheets:
        return f"a {doc.label}: only table files (CSV, TSV, XLSX, XLS, ODS) are asked about"
    return [list(r) for r in doc.sheets[0].rows[:5001]]


def _same_site(url: str, site: str) -> bool:
    # A loopback start page at "/" makes the whole host the site: its paths are its pages.
    key = site_key(url) if url.startswith("http") else ""
    return bool(key) and (key == site or key.startswith(site + "/"))


async def explore(start: str, *, max_pages: int = 20, session: BrowserSession | None = None) -> Exploration:
    site = site_key(start)
    out = Exploration(site=site, start=start)
    own = session is None
    sess = session or await BrowserSession.launch()
    try:
        page = await sess.fresh_page()
        queue: deque[tuple[str, list[str]]] = deque([(start, [])])
        seen = {urldefrag(start)[0]}
        while queue and len(out.pages) < max_pages:
            url, path = queue.popleft()
            try:
                await page.goto(url, wait_until="load", timeout=20_000)
                raw = json.loads(await page.evaluate(_READ_JS))
            except Exception as e:  # a page that fails to load is one line, not the end
                out.skipped.append(f"{url}: {str(e).splitlines()[0][:200]}")
                continue
            read = PageRead(url=page.url, title=raw["title"] or raw["h1"], path=path)
            read.tables = [t for t in raw["tables"] if len(t["rows"]) >= 2]
            read.pairs = [(k, v) for k, v in raw["pairs"] if k and v]
            for href, text in raw["links"]:
                target = urldefrag(urljoin(page.url, href))[0]
                if not _same_site(target, site) or target in seen:
                    continue
                seen.add(target)
                if target.lower().split("?")[0].endswith(FILE_SUFFIXES):
                    read.files.append((target, text))
                else:
                    queue.append((target, [*path, text or target]))
            for file_url, text in read.files:
                rows = await _file_rows(page, file_url)
                if isinstance(rows, str):
                    out.skipped.append(f"{file_url}: {rows}")
                elif len(rows) >= 2:
                    read.tables.append(
                        {"caption": f"the file '{text or file_url}'", "rows": rows, "file": file_url}
                    )
            out.pages.append(read)
    finally:
        if own:
            await sess.close()
    return out
