"""The paired table printed at the end of a paired BreakingWeb run (the full tables are in
summary.json `extensions.breakingweb` and report.html)."""

from __future__ import annotations

from typing import Any

TOP_FAMILIES = 5  # as the paper's Figure 4(b) lists its top-5 families


def _ci(ci: list[float] | None) -> str:
    return f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci and len(ci) == 2 else ""


def _row(name: str, g: dict[str, Any]) -> str:
    return (
        f"  {name:<28} {g['pairs']:>5}  {g['clean_pass']:>6.0%} → {g['intervention_pass']:>6.0%}"
        f"  Δ {g['delta']:+.2f}{_ci(g.get('delta_ci'))}"
    )


def paired_lines(block: dict[str, Any], pairing: str | None) -> list[str]:
    """Overall, per primitive, and the families with the largest drops, one line each."""
    overall = block["paired"]
    lines = [
        f"paired ({pairing or 'sweep'}): {overall['pairs']} pairs, pass {overall['clean_pass']:.0%} clean → "
        f"{overall['intervention_pass']:.0%} under intervention (Δ {overall['delta']:+.2f}"
        f"{_ci(overall.get('delta_ci'))}, 95% paired bootstrap)",
        f"  {'primitive':<28} {'pairs':>5}  {'clean':>6}   {'interv.':>6}",
    ]
    lines += [_row(k, g) for k, g in sorted((block.get("per_primitive") or {}).items())]
    families = sorted((block.get("per_family") or {}).items(), key=lambda kv: (-kv[1]["delta"], kv[0]))
    if families:
        lines.append(f"  largest drops (top {min(TOP_FAMILIES, len(families))} families):")
        lines += [_row(k, g) for k, g in families[:TOP_FAMILIES]]
    return lines
