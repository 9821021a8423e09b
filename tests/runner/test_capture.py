"""Passive capture against a real page in real Chromium: XHR/fetch params, navigations,
downloads, redaction, export on every exit path."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from tests.support.servers import serve_pages
from webfovea.browser.session import BrowserSession
from webfovea.record.capture import REDACTED, export_capture, start_capture

PAGE = """<!doctype html><title>filters</title>
<select id=country><option>FR</option><option value=VN>Vietnam</option></select>
<button id=apply onclick="apply()">apply</button>
<a id=dl href="/report.csv" download="report-2024.csv">download</a>
<a id=next href="/next">next</a>
<div id=out></div>
<script>
async function apply() {
  const c = document.getElementById('country').value;
  await fetch('/api?country=' + c + '&token=abc&page=2', {headers: {Authorization: 'Bearer s3cret'}});
  await fetch('/api/search', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Api-Key': 'k1'},
      body: JSON.stringify({query: 'rice', filters: {country: c, api_key: 'k2'}, password: 'pw'})});
  const x = new XMLHttpRequest();
  x.open('POST', '/api/form'); x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
  x.onload = () => { document.getElementById('out').textContent = 'done'; };
  x.send('year=2024&session_id=zzz&keyword=rice');
}
</script>"""


async def test_capture_records_filter_requests_without_secrets(tmp_path: Path) -> None:
    pages = {"/": PAGE, "/next": "<title>next</title><p>second page</p>", "/report.csv": b"a,b\n1,2\n"}
    with serve_pages(pages) as srv:
        s = await BrowserSession.launch()
        try:
            page = await s.fresh_page()
            cap = await start_capture(page, tmp_path)
            await page.goto(srv.url("/"))
            await page.select_option("#country", "VN")
            await page.click("#apply")
            await page.wait_for_selector("#out:text('done')")
            async with page.expect_download() as dl:
                await page.click("#dl")
            await (await dl.value).path()
            await page.click("#next")
            await page.wait_for_url("**/next")
            assert (tmp_path / ".capture.sqlite").exists()  # rows go to disk during the task
            # ... readable by another process at once (a dead worker's supervisor), no fsync each
            with contextlib.closing(sqlite3.connect(tmp_path / ".capture.sqlite")) as other:
                assert other.execute("SELECT count(*) FROM events").fetchone()[0] >= 5
            assert cap.db is not None and cap.db.execute("PRAGMA synchronous").fetchone()[0] == 0
            out = await cap.finish()
        finally:
            await s.close()
    assert not (tmp_path / ".capture.sqlite").exists()
    data = json.loads(out.read_text())
    text = out.read_text()
    for secret in ("abc", "s3cret", "k1", "k2", "pw", "zzz"):
        assert f'"{secret}"' not in text and f"={secret}" not in text, secret
    assert "authorization" not in text.lower() and "x-api-key" not in text.lower()

    reqs = data["requests"]
    assert [r["method"] for r in reqs] == ["GET", "POST", "POST"]
    get, post_json, post_form = reqs
    assert get["query_params"] == [["country", "VN"], ["token", REDACTED], ["page", "2"]]
    assert get["url"] == srv.url(f"/api?country=VN&token={REDACTED}&page=2")
    assert get["resource_type"] == "fetch" and get["page_url"] == srv.url("/")
    assert post_json["body_kind"] == "json"
    assert post_json["body_json"] == {
        "query": "rice",
        "filters": {"country": "VN", "api_key": REDACTED},
        "password": REDACTED,
    }
    assert post_form["resource_type"] == "xhr" and post_form["body_kind"] == "form"
    assert post_form["body_params"] == [["year", "2024"], ["session_id", REDACTED], ["keyword", "rice"]]

    assert [n["url"] for n in data["navigations"]] == [srv.url("/"), srv.url("/next")]
    assert data["downloads"] == [
        {**data["downloads"][0], "suggested_filename": "report-2024.csv", "completed": True, "failure": None}
    ]


def test_export_without_db_writes_empty_capture(tmp_path: Path) -> None:
    out = export_capture(tmp_path / ".capture.sqlite", tmp_path / "capture.json", note="worker lost")
    assert json.loads(out.read_text()) == {
        "requests": [],
        "navigations": [],
        "downloads": [],
        "note": "worker lost",
    }
