"""The viewer's fixture run, written once per module (its screenshots take a second to encode)
and copied for each test, which may label or review in its copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.view.fixture_run import build_run

SECRET = b"\x89PNG\r\n\x1a\n the secret outside the run"


@pytest.fixture(scope="module")
def template_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_run(tmp_path_factory.mktemp("view") / "run")


@pytest.fixture
def run(template_run: Path, tmp_path: Path) -> Path:
    """A fresh copy of the fixture run, beside a PNG-looking secret it links to from inside."""
    (tmp_path / "secret.png").write_bytes(SECRET)
    copy = Path(shutil.copytree(template_run, tmp_path / "run"))
    (copy / "gdp-th" / "linked.png").symlink_to(tmp_path / "secret.png")
    return copy
