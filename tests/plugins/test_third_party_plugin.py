"""A plug-in installed from a throwaway distribution (a module and its dist-info, as pip leaves
them) goes through the same door as the built-ins: its suite runs with its own option, its
summary block, report section and end-of-run line appear; its broken entry point, its claim on
a built-in's name and its hook module that does not import are each reported once, naming the
plug-in and the distribution, while everything else keeps working."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DIST = "throwaway-plugin"

ENTRY_POINTS = """\
[webfovea.suites]
orders = wf_throwaway:SUITE
broken = wf_throwaway:MISSING

[webfovea.judge_methods]
rule = wf_throwaway:RULE_CLAIM

[webfovea.plugins]
orders = wf_throwaway
bad-hooks = wf_no_such_module
"""


@pytest.fixture(scope="module")
def site_packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("site")
    shutil.copy(HERE / "throwaway.py", where / "wf_throwaway.py")
    info = where / "throwaway_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DIST}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return where


def webfovea(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(site), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONPATH": path, "COLUMNS": "200"},
    )


def test_the_inventory_names_each_item_its_origin_and_each_failure(site_packages: Path) -> None:
    res = webfovea(site_packages, "plugins", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    by_kind = {r["kind"]: {i["name"]: i["from"] for i in r["items"]} for r in data["registries"]}
    assert by_kind["suite"]["orders"].startswith(f"{DIST} (orders = wf_throwaway:SUITE)")
    assert by_kind["suite"]["builtin"].startswith("webfovea")  # the built-ins are still there
    assert by_kind["judge method"]["rule"] == "webfovea"  # the claim on a built-in's name is refused
    problems = "\n".join(data["problems"])
    assert (
        f"suite plug-in 'broken' from {DIST} (broken = wf_throwaway:MISSING) not loaded: AttributeError"
        in problems
    )
    assert (
        f"judge method plug-in 'rule' from {DIST}" in problems
        and "already registered (from webfovea)" in problems
    )
    assert f"hooks plug-in 'bad-hooks' from {DIST}" in problems and "ModuleNotFoundError" in problems
    assert ("orders", f"{DIST} (orders = wf_throwaway)") in {
        (h["name"], h["from"]) for h in data["hook_plugins"]
    }
    # Reported once each on stderr, however often the registries are read.
    for name in ("'broken'", "'bad-hooks'"):
        assert sum(name in line for line in res.stderr.splitlines()) == 1, res.stderr


def test_its_suite_runs_with_its_own_option_block_section_and_line(
    site_packages: Path, tmp_path: Path
) -> None:
    run = tmp_path / "orders"
    res = webfovea(site_packages, "bench", "orders", "--copies", "5", "--model", "oracle", "--out", str(run))
    assert res.returncode == 0, res.stderr[-3000:]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["tasks"] == 1 and summary["passed"] == 1  # --copies reached the loader: one task
    assert summary["meta"]["copies"] == ["5"]
    assert summary["extensions"]["orders"] == {"orders": 1, "references_right": 1}
    assert "orders: 1/1 references right" in res.stdout
    assert "<h2 id=orders>Orders</h2><p>1 right</p>" in (run / "report.html").read_text()
    # Its own check, and another suite refusing its option, before any browser starts.
    bad = webfovea(site_packages, "bench", "orders", "--copies", "x", "--out", str(tmp_path / "bad"))
    assert bad.returncode != 0 and "--copies takes whole numbers" in bad.stderr + bad.stdout
    other = webfovea(site_packages, "bench", "builtin", "--copies", "3", "--out", str(tmp_path / "other"))
    assert (
        other.returncode != 0 and "--copies applies to the orders suite only" in other.stderr + other.stdout
    )
    assert "--copies" in webfovea(site_packages, "bench", "--help").stdout
