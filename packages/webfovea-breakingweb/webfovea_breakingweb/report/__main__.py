"""`python -m webfovea_breakingweb.report RUN[=LABEL]... --out DIR`: seed 003's tables and figures
(Table 2 to Figure 6) and robustness checks over several paired BreakingWeb runs (report/), written
to DIR as report.json, report.md, report.html and one CSV per table; Table 2 and the top-5
families printed. A module of the benchmark, not a `webfovea` command: the product never
imports BreakingWeb (pyproject.toml's contracts)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from webfovea_breakingweb.report import ReportError, build_report
from webfovea_breakingweb.report.render import csv_tables, html, markdown


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="breakingweb-report", description=__doc__)
    ap.add_argument("runs", nargs="+", metavar="RUN[=LABEL]", help="paired BreakingWeb run folders")
    ap.add_argument("--out", type=Path, required=True, help="folder to write the report into")
    args = ap.parse_args(argv)
    try:
        rep = build_report(list(args.runs))
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.out.exists() and not args.out.is_dir():
        print(f"error: --out {args.out} is a file, not a folder", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(
        json.dumps(rep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    md = markdown(rep)
    (args.out / "report.md").write_text(md, encoding="utf-8")
    (args.out / "report.html").write_text(html(rep), encoding="utf-8")
    for name, body in csv_tables(rep).items():
        (args.out / name).write_text(body, encoding="utf-8")
    # Table 2 and Figure 4(b): the two a reader looks for first.
    print(md.split("\n## Figure 4(a)", 1)[0].split("\n", 4)[-1])
    print("## Figure 4(b)" + md.split("## Figure 4(b)", 1)[1].split("\n## Figure 4(c)", 1)[0])
    print(f"report written to {args.out}/ (report.html, report.md, report.json, CSV)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
