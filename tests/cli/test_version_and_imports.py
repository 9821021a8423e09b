"""`webfovea --version` prints the one version; no CLI module reaches into another's private
names (what they share is public in cli/common.py or lives in the application layer)."""

from __future__ import annotations

import ast
from pathlib import Path

from typer.testing import CliRunner

import webfovea
from webfovea.cli.main import app

CLI = Path(webfovea.__file__).parent / "cli"


def test_version_prints_the_package_version() -> None:
    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0
    assert res.stdout.strip() == f"webfovea {webfovea.__version__}"


def _private_imports(source: str) -> list[str]:
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("webfovea.cli")
        for alias in node.names
        if alias.name.startswith("_")
    ]


def test_no_cli_module_imports_another_ones_private_names() -> None:
    files = sorted(CLI.glob("*.py"))
    assert {"bench.py", "ab.py", "replay.py"} <= {f.name for f in files}
    found = {f.name: _private_imports(f.read_text()) for f in files}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_scan_sees_a_private_import() -> None:
    assert _private_imports("from webfovea.cli.bench import _only, bench\n") == ["webfovea.cli.bench._only"]
