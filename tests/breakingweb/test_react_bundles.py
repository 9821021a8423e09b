"""The React environments' bundles are their sources' builds: rebuilding with the pinned
toolchain (react/package-lock.json: React, esbuild) gives the committed bytes, the bundle
carries the client-layer interventions (interventions/iv.js, compiled in), and the sources use
no clock or randomness (seed 003's determinism rule, as test_determinism.py holds the apps to)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from webfovea_breakingweb.engine.react import DIST, REACT_DIR

SOURCES = sorted([*(REACT_DIR / "kit").rglob("*.js*"), *(REACT_DIR / "envs").rglob("*.js*")])
FORBIDDEN = re.compile(r"Math\.random\(|Date\.now\(|new Date\(|performance\.now\(")


def test_every_environment_has_a_committed_bundle() -> None:
    envs = sorted(p.name for p in (REACT_DIR / "envs").iterdir() if (p / "main.jsx").is_file())
    assert envs and envs == sorted(p.stem for p in DIST.glob("*.js"))
    for env in envs:
        held = (DIST / f"{env}.js").read_text(encoding="utf-8")
        # The families' own markup is in the bundle: the interventions are compiled in, inert
        # until the session answers a plan (react/kit/Interventions.jsx).
        assert "iv-overlay" in held and "iv-cookies" in held and "/interventions" in held, env


def test_rebuilding_gives_the_committed_bytes() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip(
            "node is not installed: the bundle check needs Node.js (scripts/setup installs the toolchain)"
        )
    if not (REACT_DIR / "node_modules" / "esbuild").is_dir():
        pytest.skip(f"{REACT_DIR}/node_modules is absent: run `npm ci` there (scripts/setup does)")
    done = subprocess.run(
        [node, "build.mjs", "--check"], cwd=REACT_DIR, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches its source" in done.stdout


def test_the_sources_read_no_clock_and_draw_no_randomness() -> None:
    assert SOURCES
    for path in SOURCES:
        hits = FORBIDDEN.findall(path.read_text(encoding="utf-8"))
        assert not hits, (path.name, hits)
