"""What a paired BreakingWeb run prints at the end (the plug-in's `webfovea_terminal_summary`):
the run's row of seed 003's Table 2 — per primitive, n pairs, clean and intervention pass rate,
the paired drop with its 95% bootstrap interval — and Figure 4(b)'s top-5 families by failure
mass (n × failure rate = failed intervention runs; n ≥ 50, else the top 5 of all, marked).
Every number is the one summary.json's `extensions.breakingweb` block holds, so the terminal
and the file never disagree; the report over runs (report/) builds the same two over several.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.report.tables import MIN_BUCKET, TOP, top_families

TOP_FAMILIES = TOP  # as the paper's Figure 4(b) lists its top-5 families


def _ci(ci: list[float] | None) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci and len(ci) == 2 else "-"


def _table2_row(name: str, g: dict[str, Any]) -> str:
    return (
        f"  {name:<16} {g['pairs']:>5} {g['clean_pass']:>6.0%} {g['intervention_pass']:>7.0%}"
        f" {g['delta']:>+6.2f}  {_ci(g.get('delta_ci'))}"
    )


def ranked_families(per_family: dict[str, Any]) -> list[dict[str, Any]]:
    """summary.json's per_family as Figure 4(b)'s rows (report/tables.py `failure_mass` over one run)."""
    out = []
    for fam, g in per_family.items():
        n = int(g["pairs"])
        failed = round(n * (1 - float(g["intervention_pass"])))
        out.append(
            {
                "family": fam,
                "layer": g.get("layer", "?"),
                "primitive": g.get("primitive", "?"),
                "n": n,
                "failure_rate": round(failed / n, 4) if n else 0.0,
                "mass": failed,
            }
        )
    return sorted(out, key=lambda f: (-f["mass"], -f["failure_rate"], f["family"]))


def paired_lines(block: dict[str, Any], pairing: str | None, harness: str | None = None) -> list[str]:
    """The overall line, Table 2 (one row per primitive, then all) and the top-5 families; a
    people's run's summary rows are its cold attempts, and the line after says where the rest is."""
    overall = block["paired"]
    lines = [
        f"paired ({pairing or 'sweep'}): {overall['pairs']} pairs, pass {overall['clean_pass']:.0%} clean → "
        f"{overall['intervention_pass']:.0%} under intervention (Δ {overall['delta']:+.2f} "
        f"{_ci(overall.get('delta_ci'))}, 95% paired bootstrap)",
        "Table 2 (seed 003): pass rate per primitive, clean and under intervention, paired drop",
        f"  {'primitive':<16} {'n':>5} {'clean':>6} {'interv.':>7} {'drop':>6}  95% CI",
    ]
    lines += [_table2_row(k, g) for k, g in sorted((block.get("per_primitive") or {}).items())]
    lines.append(_table2_row("all", overall))
    fig = top_families(ranked_families(block.get("per_family") or {}))
    if fig["top"]:
        lines.append(
            f"Figure 4(b): top {len(fig['top'])} families by failure mass (n × failure rate"
            + (
                f"; none reaches n ≥ {MIN_BUCKET}, all shown)"
                if fig["below_threshold"]
                else f", n ≥ {MIN_BUCKET})"
            )
        )
        lines.append(f"  {'family':<34} {'n':>5} {'fail':>6} {'mass':>5}")
        lines += [
            f"  {f['family']:<34} {f['n']:>5} {f['failure_rate']:>6.0%} {f['mass']:>5}" for f in fig["top"]
        ]
    if harness == "human":
        lines.append(
            "people's run: the rows above are the cold attempts; both attempts, times and raw events "
            "are in each task's human_attempts.json (Table 5, Figure 6: python -m webfovea_breakingweb.report)"
        )
    return lines
