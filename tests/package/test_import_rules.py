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


PACKAGES = {
    "webfovea_proving_ground": Path("packages/webfovea-proving-ground"),
    "webfovea_breakingweb": Path("packages/webfovea-breakingweb"),
}


def _lint(where: Path) -> subprocess.CompletedProcess[str]:
    path = [str(where), *(str(where / folder) for folder in PACKAGES.values())]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=where, env=env, capture_output=True, text=True, timeout=120
    )


def _copy(tmp_path: Path) -> Path:
    dest = tmp_path / "tree"
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "webfovea", dest / "webfovea", ignore=skip)
    for name, folder in PACKAGES.items():
        shutil.copytree(ROOT / folder / name, dest / folder / name, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def test_the_tree_keeps_its_import_rules(tmp_path):
    res = _lint(_copy(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "9 kept, 0 broken" in res.stdout


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
    pg = tree / PACKAGES["webfovea_proving_ground"] / "webfovea_proving_ground"
    bw = tree / PACKAGES["webfovea_breakingweb"] / "webfovea_breakingweb"
    # The suites reaching into the oracle, an app into the interventions, the oracle into a site.
    for rel, line in (
        (pg / "suites/builtin.py", "from webfovea_proving_ground.oracle import model  # noqa"),
        (bw / "apps/cases/__init__.py", "from webfovea_breakingweb import interventions  # noqa"),
        (pg / "oracle/speech.py", "from webfovea_proving_ground.sites import forms  # noqa"),
    ):
        path = rel
        path.write_text(path.read_text() + "\n" + line + "\n")
    res = _lint(tree)
    assert res.returncode != 0
    out = " ".join(res.stdout.split())  # the report wraps long lines
    assert "webfovea_proving_ground.suites is not allowed to import webfovea_proving_ground.oracle" in out
    assert ("webfovea_breakingweb.apps is not allowed to import webfovea_breakingweb.interventions") in out
    assert "webfovea_proving_ground.oracle is not allowed to import webfovea_proving_ground.sites" in out
