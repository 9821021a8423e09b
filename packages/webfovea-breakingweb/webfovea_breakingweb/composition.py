"""The official catalogue's composition (seed 003 Figure 3 and Table 14's axes): pairs by
environment x primitive, base tasks by environment x tier, pairs by layer x family and per
family, beside the paper's numbers where its text gives them.

`--list --json` carries `composition(…)` under `extensions.breakingweb.composition`;
docs/breakingweb.md shows `composition_markdown()` between its `composition` markers, which a
test keeps equal to this command's output:

    python -m webfovea_breakingweb.pairing composition   # at seed 42, over the registered apps

The paper's text (the copy in /work/shared/seeds) gives the totals — 519 pairs, 7 environments,
29 families, 4 layers, 5 tiers, 7 primitives, a 140-task human panel, four empty
environment x primitive cells — but the per-cell counts only as charts (Figure 3), so those
cells read "—" in the paper's column.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.environments import HUMAN_PANEL_SIZE, OFFICIAL_ENVIRONMENTS, OFFICIAL_PAIRS, QUOTAS
from webfovea_breakingweb.interventions import LAYERS, PRIMITIVES, Family, official_families
from webfovea_breakingweb.selection import TIER_ORDER, tier_of
from webfovea_breakingweb.tiers import TIERS

PAPER = {  # seed 003: abstract, §2.2, §2.3, §5
    "pairs": OFFICIAL_PAIRS,
    "environments": len(OFFICIAL_ENVIRONMENTS),
    "families": 29,
    "layers": len(LAYERS),
    "tiers": len(TIERS),
    "primitives": len(PRIMITIVES),
    "human_panel": HUMAN_PANEL_SIZE,
    "empty_environment_primitive_cells": 4,  # §2.2: "the four empty cells are reported in Table 14"
}


def _table(pairs: list[tuple[str, str]], rows: list[str], cols: list[str]) -> dict[str, dict[str, int]]:
    counts = Counter(pairs)
    return {r: {c: counts[(r, c)] for c in cols} for r in rows}


def composition(off: dict[str, Family], tasks: dict[str, StatefulTask], panel: int) -> dict[str, Any]:
    """The tables of one official pairing ({base task id: family}) over its tasks."""
    # The seven in the paper's order (the missing ones too, as zeros), then any extension app.
    envs = [*OFFICIAL_ENVIRONMENTS, *sorted({tasks[t].app for t in off} - set(OFFICIAL_ENVIRONMENTS))]
    tiers = [t for t in TIER_ORDER if t in TIERS or any(tier_of(tasks[x]) == t for x in off)]
    fams = [f.name for f in official_families()] + sorted(
        {f.name for f in off.values()} - {f.name for f in official_families()}
    )
    env_prim = _table([(tasks[t].app, f.primitive) for t, f in off.items()], envs, list(PRIMITIVES))
    empty = sum(1 for e in OFFICIAL_ENVIRONMENTS for p in PRIMITIVES if not env_prim[e][p])
    layer_of = {f.name: f.layer for f in off.values()} | {f.name: f.layer for f in official_families()}
    return {
        "environment_primitive": env_prim,
        "environment_tier": _table([(tasks[t].app, tier_of(tasks[t])) for t in off], envs, tiers),
        "layer_family": {
            layer: {
                name: sum(f.name == name for f in off.values()) for name in fams if layer_of[name] == layer
            }
            for layer in LAYERS
        },
        "family": {name: sum(f.name == name for f in off.values()) for name in fams},
        "totals": {
            "pairs": len(off),
            "environments": sum(1 for e in OFFICIAL_ENVIRONMENTS if any(tasks[t].app == e for t in off)),
            "families": len(official_families()),
            "families_used": len({f.name for f in off.values()}),
            "layers": len({f.layer for f in off.values()}),
            "tiers": len({tier_of(tasks[t]) for t in off} & set(TIERS)),
            "primitives": len({f.primitive for f in off.values()}),
            "human_panel": panel,
            "empty_environment_primitive_cells": empty,
        },
        "paper": dict(PAPER),
        "quotas": dict(QUOTAS),
    }


def _grid(title: str, table: dict[str, dict[str, int]], quota: dict[str, int] | None = None) -> list[str]:
    cols = list(next(iter(table.values())).keys()) if table else []
    head = f"| {title} | " + " | ".join(cols) + " | total |" + (" quota |" if quota else "")
    lines = [head, "|---" * (len(cols) + 2 + (1 if quota else 0)) + "|"]
    for row, cells in table.items():
        extra = f" {quota.get(row, '—')} |" if quota else ""
        lines.append(
            f"| {row} | " + " | ".join(str(v) for v in cells.values()) + f" | {sum(cells.values())} |" + extra
        )
    return lines


def composition_markdown(data: dict[str, Any]) -> str:
    """The tables of docs/breakingweb.md's composition section."""
    totals, paper = data["totals"], data["paper"]
    lines = ["| what | ours | paper |", "|---|---|---|"]
    lines += [f"| {k.replace('_', ' ')} | {totals[k]} | {paper.get(k, '—')} |" for k in totals]
    lines += ["", "Pairs by environment and primitive (Figure 3a; quota: the chosen split of 519):", ""]
    lines += _grid("environment", data["environment_primitive"], data["quotas"])
    lines += ["", "Base tasks by environment and tier (Figure 3b):", ""]
    lines += _grid("environment", data["environment_tier"])
    lines += ["", "Pairs by layer and family (Figure 3c):", "", "| layer | family | pairs |", "|---|---|---|"]
    for layer, fams in data["layer_family"].items():
        lines += [f"| {layer} | `{name}` | {n} |" for name, n in fams.items()]
    return "\n".join(lines)
