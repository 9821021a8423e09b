"""`webfovea generate`: tasks whose answers it proves from what it read — on the proving
ground's station register its answers are the site's own truth (it never sees the site's
code), on a small site it follows links and opens a linked CSV, and bad input is refused."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.servers import serve_pages
from webfovea.browser.session import BrowserSession
from webfovea.generate.explore import explore
from webfovea.generate.tasks import make_tasks
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.sites.structure import YEARS, stations

HOME = """<html><head><title>Harbour statistics</title></head><body><h1>Harbour statistics</h1>
<dl><dt>Berths</dt><dd>14</dd><dt>Opened</dt><dd>1897</dd></dl>
<a href="/ships">Ship register</a> <a href="https://elsewhere.example/x">Partner</a></body></html>"""
SHIPS = """<html><head><title>Ship register</title></head><body><h2>Vessels in port</h2>
<table><tr><th>Vessel</th><th>Flag</th><th>Tonnage</th></tr>
<tr><td>Aurora</td><td>Norway</td><td>12,400</td></tr><tr><td>Belle</td><td>France</td><td>8,150</td></tr>
<tr><td>Corsair</td><td>Malta</td><td>21,000</td></tr></table>
<a href="/calls.csv">Port calls (CSV)</a></body></html>"""
ON_THE_WORKERS_LOOP = pytest.mark.asyncio(loop_scope="session")  # the worker's one browser

CALLS = "call,vessel,berth\nK-1,Aurora,3\nK-2,Belle,7\nK-3,Corsair,1\n"


@ON_THE_WORKERS_LOOP
async def test_its_answers_on_the_station_register_are_the_sites_truth(session: BrowserSession) -> None:
    with start_sites() as sites:
        found = await explore(sites.url("/struct/stations"), max_pages=1, session=session)
    tasks = make_tasks(found, seed=3, max_tasks=6)
    assert len(tasks) == 3  # three cells of the one table
    truth = {
        code: dict(zip(["Region", *YEARS], [region, *vals], strict=True))
        for code, region, vals in stations(0)
    }
    for t in tasks:
        proof = t.model_extra["proof"]
        code = proof["row"]["Station"]
        assert t.answer == truth[code][proof["column"]] == proof["value"]
        assert code in t.task and proof["page"].endswith("/struct/stations")
    assert make_tasks(found, seed=3, max_tasks=6) == tasks  # same content and seed, same tasks


@ON_THE_WORKERS_LOOP
async def test_it_follows_links_on_the_site_and_opens_a_linked_csv(session: BrowserSession) -> None:
    with serve_pages({"/": HOME, "/ships": SHIPS, "/calls.csv": CALLS}) as site:
        found = await explore(site.url("/"), max_pages=5, session=session)
    assert [p.path for p in found.pages] == [[], ["Ship register"]]  # never the partner site
    tasks = make_tasks(found, max_tasks=50)
    by_source = {
        (t.model_extra["proof"].get("file") or t.model_extra["proof"]["page"]).rsplit("/", 1)[-1]
        for t in tasks
    }
    assert by_source == {"", "ships", "calls.csv"}
    ships = {"Aurora": ("Norway", "12,400"), "Belle": ("France", "8,150"), "Corsair": ("Malta", "21,000")}
    for t in tasks:
        proof = t.model_extra["proof"]
        if proof.get("file"):
            assert proof["row"]["call"] in t.task and t.model_extra["difficulty"] == "medium"
        elif "row" in proof:
            name = proof["row"]["Vessel"]
            assert t.answer == ships[name][["Flag", "Tonnage"].index(proof["column"])]
            assert proof["links_followed"] == ["Ship register"]
        else:
            assert (proof["label"], t.answer) in {("Berths", "14"), ("Opened", "1897")}
            assert t.model_extra["difficulty"] == "easy"


def test_bad_input_is_refused_with_what_to_give() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "generate", "--site", "example.org/stats"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode != 0 and "not an http(s) URL" in r.stdout + r.stderr
