"""`python -m webfovea_breakingweb.harnesses RUN[=LABEL]... [--json FILE] [--md FILE]`: the
harness × condition table of paired BreakingWeb runs (table.py). A module of the benchmark, not a
`webfovea` command: the product never imports BreakingWeb (pyproject.toml's contracts)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from webfovea_breakingweb.harnesses.table import TableError, harness_table, markdown, terminal


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="harness-table", description=__doc__)
    ap.add_argument("runs", nargs="+", metavar="RUN[=LABEL]", help="paired BreakingWeb run folders")
    ap.add_argument("--json", type=Path, help="write the table as JSON here")
    ap.add_argument("--md", type=Path, help="write the table as Markdown here")
    args = ap.parse_args(argv)
    try:
        table = harness_table(list(args.runs))
    except TableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from rich.console import Console

    Console(width=max(Console().width, 120)).print(terminal(table))  # its eight columns unwrapped
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    if args.md:
        args.md.write_text(markdown(table), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
