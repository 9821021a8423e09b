"""`webfovea bench SOURCE --list --json` gives one shape for every source — each built-in suite, a
task file, a BrowserGym task source, a suite registered by a third party — and lists exactly the
tasks a run would load (the same ids and answers as the suite's loader on started sites); bad
input is one clear line. No browser starts."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.table import Table
from typer.testing import CliRunner

from tests.app import orders_suite
from webfovea.cli.main import app
from webfovea.suites import SUITES, Suite, SuiteOptions
from webfovea_proving_ground.placeholder import PlaceholderSites
from webfovea_proving_ground.serve import SitesHandle, start_sites

KEYS = {"source", "kind", "seed", "description", "options", "tasks", "counts", "extensions"}
ROW = {"task_id", "site", "category", "website", "task"}


def listing(*args: str) -> dict[str, Any]:
    res = CliRunner().invoke(app, ["bench", *args, "--list", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) == KEYS and data["kind"] in ("suite", "task_source", "task_file")
    assert all(set(row) == ROW for row in data["tasks"])
    counts = data["counts"]
    assert set(counts) == {"tasks", "by_site", "by_category"} and counts["tasks"] == len(data["tasks"])
    assert sum(counts["by_site"].values()) == sum(counts["by_category"].values()) == counts["tasks"]
    return data


def refused(*args: str) -> str:
    """The error, its whitespace dropped (the terminal wraps a long path anywhere)."""
    res = CliRunner().invoke(app, ["bench", *args, "--list", "--json"])
    assert res.exit_code != 0 and res.stdout.strip()[:1] != "{", res.output
    return "".join(res.output.split())


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[int, SitesHandle]]:
    """Started sites per seed: what a run loads its tasks on."""
    with start_sites(0) as zero, start_sites(42) as bw:
        yield {0: zero, 42: bw}


@pytest.mark.parametrize("name", ["builtin", "hostile", "documents", "breakingweb"])
def test_each_suite_lists_the_tasks_a_run_loads(name: str, sites: dict[int, SitesHandle]) -> None:
    data = listing(name)
    suite = SUITES[name]
    seed = suite.default_seed or 0
    loaded = suite.tasks(sites[seed], seed)
    assert (data["kind"], data["seed"], data["description"]) == ("suite", seed, suite.description)
    assert [t["task_id"] for t in data["tasks"]] == [t.task_id for t in loaded]
    # The pages are named as a task file names them, not by this start's ports.
    main = sites[seed].main_url
    assert [t["website"] for t in data["tasks"]] == [
        t.website.replace(main, "http://proving-ground") for t in loaded
    ]
    assert data["counts"]["by_site"] == {
        s: sum((t.site or "-") == s for t in loaded) for s in sorted({t.site or "-" for t in loaded})
    }
    # Built against the sites named but not started, the tasks ask for the answers the pages show.
    unstarted = suite.tasks(
        PlaceholderSites(seed, "http://proving-ground", "http://proving-ground-frames"), seed
    )
    assert [t.answer for t in unstarted] == [t.answer for t in loaded]
    # Only a suite with its own catalogue has a block, under its own name.
    assert list(data["extensions"]) == ([name] if suite.catalogue else [])


def test_a_suite_option_lists_what_the_run_with_it_loads(sites: dict[int, SitesHandle]) -> None:
    data = listing("breakingweb", "--pairing", "official")
    loaded = SUITES["breakingweb"].tasks(sites[42], 42, SuiteOptions({"pairing": "official"}))
    assert data["options"] == {"pairing": "official"}
    assert [t["task_id"] for t in data["tasks"]] == [t.task_id for t in loaded]
    block = data["extensions"]["breakingweb"]
    # The official catalogue's base tasks, each clean and under its one variant.
    assert (
        data["counts"]["tasks"]
        == block["counts"]["official_base_tasks"] + block["counts"]["pairs"]["official"]
    )


def test_a_task_file_lists_its_tasks_as_written(tmp_path: Path) -> None:
    rows = [
        {"task_id": "a", "task": "x", "website": "http://proving-ground/stats/", "site": "stats"},
        {"task_id": "b", "task": "y", "website": "https://example.org/", "category": "lookup"},
    ]
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    data = listing(str(path), "--seed", "3")
    assert (data["kind"], data["seed"], data["extensions"]) == ("task_file", 3, {})
    assert [(t["task_id"], t["website"]) for t in data["tasks"]] == [
        (r["task_id"], r["website"]) for r in rows
    ]
    assert data["counts"]["by_site"] == {"-": 1, "stats": 1}


@pytest.mark.skipif(
    importlib.util.find_spec("browsergym.miniwob") is None, reason="browsergym-miniwob is not installed"
)
def test_a_browsergym_source_lists_its_tasks() -> None:
    from webfovea.environments.browsergym.catalog import task_ids

    data = listing("browsergym:miniwob.click-*")
    assert data["kind"] == "task_source"
    assert [t["task_id"] for t in data["tasks"]] == task_ids("miniwob.click-*") != []
    assert data["counts"]["by_category"] == {"miniwob": len(data["tasks"])}


@pytest.fixture
def orders() -> Iterator[Suite]:
    """The third party's suite with its own catalogue and view, whose loader wants started sites."""
    suite = dataclasses.replace(
        orders_suite.SUITE,
        catalogue=lambda seed: {"copies": ["3", "7"], "seed": seed},
        catalogue_view=lambda block: [Table(f"{len(block['copies'])} orders")],
        lists_without_sites=False,
    )
    SUITES.register(suite)
    try:
        yield suite
    finally:
        SUITES.unregister(suite)


def test_a_registered_suite_lists_with_its_own_block(orders: Suite) -> None:
    data = listing("orders", "--seed", "5")
    assert [t["task_id"] for t in data["tasks"]] == ["orders-3-copies", "orders-7-copies"]
    # Listed on started sites, named by the placeholder all the same.
    assert {t["website"] for t in data["tasks"]} == {"http://proving-ground/lab/ws?delay=300"}
    assert data["extensions"] == {"orders": {"copies": ["3", "7"], "seed": 5}}
    shown = CliRunner().invoke(app, ["bench", "orders", "--list"])
    assert shown.exit_code == 0 and "2 orders" in shown.stdout and "orders-7-copies" in shown.stdout


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    assert squeezed("'ordres' is neither a built-in suite") in refused("ordres")
    prose = tmp_path / "notes.json"
    prose.write_text('{"not": "a list of tasks"}')
    assert squeezed(str(prose)) in refused(str(prose))
    assert squeezed("--pairing applies to the breakingweb suite only") in refused(
        "builtin", "--pairing", "official"
    )
    shown = CliRunner().invoke(app, ["bench", "builtin", "--json"]).output
    assert squeezed("--json goes with --list") in squeezed(shown)
