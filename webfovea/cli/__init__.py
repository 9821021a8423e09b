"""The `webfovea` command line: `main.py` (run, serve, report, compare), `bench.py` (bench, replay), `mcp.py` (mcp),
`common.py` (the Typer app, shared options, errors)."""

from webfovea.cli.main import main

__all__ = ["main"]
