"""The filings archive: answers that live only in documents (suite `documents`).

Annual reports as PDF (one opened by a plain link, which headless Chromium downloads; one by
a `download` link), a statistics release whose figures are only in an XLSX download, and a
50,000-row CSV export. The files are generated from the seed (`archive_files.py`).
"""

from __future__ import annotations

from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse, Response

from . import archive_files as af
from .context import SiteContext
from .layout import esc, page

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _file(body: bytes, media: str, name: str | None = None) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{name}"'} if name else {}
    return Response(content=body, media_type=media, headers=headers)


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    @main.get("/archive", response_class=HTMLResponse)
    def index() -> str:
        rows = "".join(
            f'<tr><td>{esc(name)}</td><td><a id="report-{key}" href="/archive/reports/{key}-2024.pdf"'
            f"{' download' if key == 'southport' else ''}>Annual report 2024 (PDF)</a></td></tr>"
            for key, name in af.COMPANIES.items()
        )
        body = f"""<h1>Filings archive</h1>
<p class="lead">Annual reports, statistical releases and data exports as filed. Documents open in your
browser or download.</p>
<div class="card"><h2>Annual reports</h2><table class="data" id="reports"><thead><tr><th>Company</th>
<th>Document</th></tr></thead><tbody>{rows}</tbody></table></div>
<div class="card"><h2>Statistical release</h2><p>Consumer prices and wages, 2024:
<a id="release-xlsx" href="/archive/release/prices-2024.xlsx">tables (XLSX)</a>.</p></div>
<div class="card"><h2>Data export</h2><p>Consignments cleared in 2024, one row per consignment
({af.CSV_ROWS:,} rows): <a id="export-csv" href="/archive/export/consignments.csv">export (CSV)</a>.</p></div>"""
        return page("Filings archive", body, active="/archive")

    @main.get("/archive/reports/{name}")
    def report(name: str) -> Response:
        key = name.removesuffix("-2024.pdf")
        if key not in af.COMPANIES or not name.endswith("-2024.pdf"):
            raise HTTPException(404)
        return _file(af.report_pdf(ctx.seed, key), "application/pdf")

    @main.get("/archive/release/prices-2024.xlsx")
    def release() -> Response:
        return _file(af.release_xlsx(ctx.seed), XLSX, "prices-2024.xlsx")

    @main.get("/archive/export/consignments.csv")
    def export() -> Response:
        return _file(af.export_csv(ctx.seed), "text/csv", "consignments.csv")
