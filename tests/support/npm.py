"""Real widget libraries from the npm registry, for tests whose bug class comes from one.

`npm pack` fetches the published tarball once into a cache folder (the registry is reachable on
these machines and in CI); the test page serves the library's own file. Nothing is vendored."""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

import pytest

NPM_CACHE = Path(os.environ.get("WEBFOVEA_NPM_CACHE", Path.home() / ".cache" / "webfovea-tests-npm"))
_CACHE = NPM_CACHE


def _unpacked(spec: str) -> Path:
    """The package folder of the npm package `spec`, fetched and unpacked once."""
    name, _, version = spec.rpartition("@")
    folder = _CACHE / f"{name.replace('/', '+')}-{version}"
    if not (folder / "package" / "package.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        try:
            out = subprocess.run(
                ["npm", "pack", spec, "--silent", "--pack-destination", str(folder)],
                check=True,
                capture_output=True,
                text=True,
                timeout=120,
            )
        except FileNotFoundError:
            pytest.skip("npm is not installed")
        tarball = folder / out.stdout.strip().splitlines()[-1]
        with tarfile.open(tarball) as tar:
            tar.extractall(folder, filter="data")
    return folder / "package"


def npm_folder(spec: str, sub: str, prefix: str) -> dict[str, bytes]:
    """Every file under `sub` of the npm package `spec`, keyed by `prefix` + its path there:
    pages for `serve_pages`, for libraries that load their parts by relative URL."""
    root = _unpacked(spec) / sub
    return {
        f"{prefix}/{f.relative_to(root).as_posix()}": f.read_bytes() for f in root.rglob("*") if f.is_file()
    }


def npm_file(spec: str, member: str) -> bytes:
    """`member` (a path inside the package, e.g. 'Sortable.min.js') of the npm package `spec`
    ('sortablejs@1.15.6'). Skips the test when npm is missing; fails when the fetch does."""
    return (_unpacked(spec) / member).read_bytes()
