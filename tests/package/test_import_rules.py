"""The import rules of pyproject.toml ([tool.importlinter]) hold, and really bite.

scripts/test runs `lint-imports` on the tree; here a copy of the package with one
deliberate cycle must fail the same check, so a contract that stopped matching anything
(a renamed package, a typo in a layer) cannot pass silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(where: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=where, env=env, capture_output=True, text=True, timeout=120
    )


def _copy(tmp_path: Path) -> Path:
    dest = tmp_path / "tree"
    shutil.copytree(ROOT / "webfovea", dest / "webfovea", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def test_the_tree_keeps_its_import_rules(tmp_path):
    res = _lint(_copy(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "7 kept, 0 broken" in res.stdout


def test_a_deliberate_cycle_breaks_the_rules(tmp_path):
    tree = _copy(tmp_path)
    frames = tree / "webfovea" / "browser" / "frames.py"
    frames.write_text(frames.read_text() + "\nfrom webfovea.harness import Harness  # noqa\n")
    res = _lint(tree)
    assert res.returncode != 0
    assert "webfovea.browser is not allowed to import webfovea.harness" in res.stdout
    assert "No import cycles" in res.stdout and "BROKEN" in res.stdout


def test_the_proving_grounds_rooms_stay_apart(tmp_path):
    tree = _copy(tmp_path)
    pg = tree / "webfovea" / "proving_ground"
    # The suites reaching into the oracle, an app into the interventions, the oracle into a site.
    for rel, line in (
        ("suites/builtin.py", "from webfovea.proving_ground.oracle import model  # noqa"),
        (
            "breakingweb/apps/cases/__init__.py",
            "from webfovea.proving_ground.breakingweb import interventions  # noqa",
        ),
        ("oracle/speech.py", "from webfovea.proving_ground.sites import forms  # noqa"),
    ):
        path = pg / rel
        path.write_text(path.read_text() + "\n" + line + "\n")
    res = _lint(tree)
    assert res.returncode != 0
    out = " ".join(res.stdout.split())  # the report wraps long lines
    assert "webfovea.proving_ground.suites is not allowed to import webfovea.proving_ground.oracle" in out
    assert (
        "webfovea.proving_ground.breakingweb.apps is not allowed to import "
        "webfovea.proving_ground.breakingweb.interventions"
    ) in out
    assert "webfovea.proving_ground.oracle is not allowed to import webfovea.proving_ground.sites" in out
