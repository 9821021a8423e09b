"""The front door cannot drift: every count, list and proving-ground URL that README.md and the docs
state is checked here against the code that decides it (the suites' listings, `bench NAME --list
--json`, from their own loaders and catalogues; the sites' index, the registries, the record
schema), and every proving-ground page the docs point at is served."""

from __future__ import annotations

import json
import re
import typing
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webfovea.cli.main import app
from webfovea.observation import modes
from webfovea.record.schema import Status
from webfovea.suites import SUITES
from webfovea_breakingweb.apps import APPS
from webfovea_proving_ground.serve import SitesHandle, start_sites
from webfovea_proving_ground.sites import SITES

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    with start_sites() as handle:
        yield handle


def _section(title: str) -> str:
    """The README's text under `## title` (up to the next heading of that level)."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert m, f"README has no section {title!r}"
    return m.group(1)


def _bullet(label: str) -> str:
    m = re.search(rf"^- \*\*{re.escape(label)}.*?(?=^- |\Z)", _section("What is in the box"), re.M | re.S)
    assert m, f"README has no bullet {label!r}"
    return m.group(0)


def _number(text: str, pattern: str) -> int:
    m = re.search(pattern, text, re.S)
    assert m, f"README does not say {pattern!r}"
    return int(m.group(1).replace(",", ""))


def _listed(source: str) -> dict[str, typing.Any]:
    """`webfovea bench SOURCE --list --json`: what a run of it loads, and its plug-in's catalogue."""
    res = CliRunner().invoke(app, ["bench", source, "--list", "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_the_suites_counts_are_the_suites_own() -> None:
    suites = _bullet("Suites")
    named = set(re.findall(r"`([a-z]+)`", suites))
    assert set(SUITES.names()) <= named, "a suite README does not name"
    builtin = _listed("builtin")["counts"]["tasks"]
    assert _number(suites, r"`builtin` \((\d+) tasks\)") == builtin
    assert _number(suites, r"`hostile` \((\d+) attacks\)") == _listed("hostile")["counts"]["tasks"]
    assert _number(suites, r"`documents`\s+\((\d+) tasks") == _listed("documents")["counts"]["tasks"]
    bw = _listed("breakingweb")
    counts = bw["extensions"]["breakingweb"]["counts"]
    assert _number(suites, r"\((\d+) base tasks") == bw["counts"]["tasks"] == counts["base_tasks"]
    assert _number(suites, r"on\s+(\d+) stateful apps") == counts["apps"] == len(bw["counts"]["by_site"])
    assert _number(suites, r"under (\d+) intervention\s+families") == counts["families"]
    assert _number(suites, r"(\d+) official pairs") == counts["pairs"]["official"]
    assert _number(suites, r"under (\d+) official families") == counts["official_families"]
    official = bw["extensions"]["breakingweb"]["environments"]["official"]
    assert re.findall(r"`([a-z]+)`", suites.split("React environments", 1)[1].split(", under")[0]) == official
    assert _number(_section("The two commands"), r"The built-in suite has (\d+) tasks") == builtin


def test_serve_lists_every_site_and_app_the_proving_ground_serves() -> None:
    listed = set(re.findall(r"`([a-z]+)`", _bullet("The proving ground")))
    served = {name for name, _path, _desc in SITES} | set(APPS)
    assert sorted(served - listed) == []


def test_every_observation_mode_is_named() -> None:
    listed = set(re.findall(r"`(?:--observation )?([a-z]+)`", _bullet("Observation modes")))
    assert sorted(set(modes.MODES) - listed) == []


def test_the_statuses_are_the_schemas() -> None:
    text = re.search(r"`result\.json` statuses: (.*?)\.\n", README, re.S)
    assert text
    assert re.findall(r"`([a-z_]+)`", text.group(1)) == list(typing.get_args(Status))


def test_the_layout_names_every_room() -> None:
    layout = _section("Layout")
    rooms = sorted(p.parent.name for p in (ROOT / "webfovea").glob("*/__init__.py"))
    assert [r for r in rooms if f"webfovea/{r}/" not in layout] == []
    packages = sorted(p.parent.name for p in (ROOT / "packages").glob("*/pyproject.toml"))
    assert packages and [p for p in packages if f"{p}/" not in layout] == []


# An OpenAI-compatible server of one's own on port 8000 (docs/models.md's example base_url) is not
# the proving ground.
_NOT_PROVING_GROUND = ("/v1",)


def test_every_proving_ground_url_in_the_docs_is_a_page_it_serves(sites: SitesHandle) -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    urls = {
        (doc.name, m.group(1) or "/")
        for doc in docs
        for m in re.finditer(r"http://127\.0\.0\.1:8000(/[^\s`\"')<>\]]*)?", doc.read_text(encoding="utf-8"))
    }
    assert urls, "no proving-ground URL found: the pattern is out of date"
    missing = []
    for doc, path in sorted(urls):
        if path.startswith(_NOT_PROVING_GROUND):
            continue
        try:
            with urllib.request.urlopen(sites.url(path), timeout=30) as r:
                code = r.status
        except urllib.error.HTTPError as e:
            code = e.code
        if code != 200:
            missing.append(f"{doc}: {path} ({code})")
    assert missing == []
