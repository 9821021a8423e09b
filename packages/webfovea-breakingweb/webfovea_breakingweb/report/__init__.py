"""The report over runs: several finished paired BreakingWeb runs (agents × harnesses, and
people's runs) → seed 003's Table 2, Figure 4(a)(b)(c), Tables 3 and 4, Figure 5, Table 5,
Figure 6 and its robustness checks, as JSON, CSV, Markdown and a self-contained HTML page
(`python -m webfovea_breakingweb.report RUN[=LABEL]... --out DIR`). Reads summary.json (run.json's
observation, a people's run's human_attempts.json) only: no app is started. docs/breakingweb.md,
"Report over runs"."""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.report.failures import table3, table4
from webfovea_breakingweb.report.human import figure6, table5
from webfovea_breakingweb.report.landscape import figure5
from webfovea_breakingweb.report.robustness import robustness
from webfovea_breakingweb.report.runs import ReportError, Run, load_runs
from webfovea_breakingweb.report.tables import (
    environment_of,
    figure4a,
    figure4b,
    figure4c,
    primitive_stats,
    table2,
)

__all__ = ["ReportError", "build_report", "report_of"]


def report_of(runs: list[Run]) -> dict[str, Any]:
    stats = primitive_stats(runs)
    first = runs[0].meta
    # People's rows join Table 2 and Figure 4(a); the figures of agents' failures are the agents'.
    agents = [r for r in runs if not r.human]
    return {
        "runs": [
            {
                "label": r.label,
                "folder": str(r.folder),
                "model": r.model,
                "harness": r.harness,
                "observation": r.observation,
                "gui_only": r.gui_only,
                "pairs": len(r.pairs),
                "attempt": r.attempt,
            }
            for r in runs
        ],
        "seed": first.get("seed"),
        "pairing": first.get("pairing"),
        "catalogue": first.get("catalogue"),
        "table2": table2(runs, stats),
        "figure4a": figure4a(runs, stats),
        "figure4b": figure4b(agents),
        "figure4c": figure4c(agents, environment_of(int(first.get("seed") or 42))),
        "table3": table3(agents),
        "table4": table4(agents),
        "figure5": figure5(agents),
        "table5": table5(runs),
        "figure6": figure6(runs),
        "robustness": robustness({r.label: r.pairs for r in agents}),
    }


def build_report(specs: list[str]) -> dict[str, Any]:
    """The report of the run folders `RUN` or `RUN=LABEL` (ReportError: they cannot be compared)."""
    return report_of(load_runs(specs))
