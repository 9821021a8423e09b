"""BreakingWeb's catalogue on a terminal (`webfovea bench breakingweb --list`): the counts, the
apps and the intervention families, drawn from its block of the listing
(`extensions.breakingweb`, `pairing.catalogue`); `--list --json` carries the block as it is."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def catalogue_tables(data: dict[str, Any]) -> list[Table]:
    """The counts, the apps and the families (layer, primitive, counterpart, where it applies)."""
    counts = data.get("counts", {})
    envs = data.get("environments") or {}
    head = Table(title=f"catalogue · seed {data.get('seed')}")
    head.add_column("what")
    head.add_column("count", justify="right")
    if envs:
        missing = envs.get("missing") or []
        present = len(envs.get("present") or [])
        head.caption = f"official environments present: {present} of {len(envs.get('official') or [])}" + (
            f" (missing: {', '.join(missing)})" if missing else ""
        )
    for key in ("apps", "base_tasks", "official_base_tasks", "families", "official_families"):
        if key in counts:
            head.add_row(key.replace("_", " "), str(counts[key]))
    for layer, n in (counts.get("families_per_layer") or {}).items():
        head.add_row(f"  official families on the {layer} layer", str(n))
    for pairing, n in (counts.get("pairs") or {}).items():
        head.add_row(f"pairs ({pairing})", str(n))
    apps = Table(title="apps")
    for col in ("app", "official", "page", "tasks", "state-changing", "retrieval"):
        apps.add_column(col, justify="right" if col in ("tasks", "state-changing", "retrieval") else "left")
    for a in data.get("apps", []):
        apps.add_row(
            a["name"],
            "official" if a.get("official") else "extension",
            a.get("path", ""),
            str(a.get("tasks", 0)),
            str(a.get("state_changing", 0)),
            str(a.get("retrieval", 0)),
        )
    fams = Table(title="intervention families")
    fams.add_column("family", no_wrap=True)
    for col in ("layer", "primitive", "counterpart", "apps", "tasks", "official"):
        fams.add_column(col, justify="right" if col in ("tasks", "official") else "left")
    for f in data.get("families", []):
        name = f["name"] + (" *" if f.get("own") else "")
        fams.add_row(
            name,
            f["layer"],
            f["primitive"],
            f["counterpart"],
            ", ".join(f["apps"]),
            str(f["tasks"]),
            str(f["official_tasks"]),
        )
    fams.caption = "* added by this project beyond the seed's catalogue text (an extension, not official)"
    return [head, apps, fams, *_panel_table(data)]


def _panel_table(data: dict[str, Any]) -> list[Table]:
    """Human-140's cells: how many base tasks each (environment, tier) cell holds, of 4."""
    cells = (data.get("panels") or {}).get("human-140") or {}
    if not cells:
        return []
    envs = list(dict.fromkeys(key.split("/")[0] for key in cells))
    tiers = list(dict.fromkeys(key.split("/")[1] for key in cells))
    table = Table(title=f"panel human-140 · {sum(len(v) for v in cells.values())} base tasks")
    table.add_column("environment")
    for tier in tiers:
        table.add_column(tier, justify="right")
    for env in envs:
        table.add_row(env, *(str(len(cells.get(f"{env}/{tier}", []))) for tier in tiers))
    table.caption = "4 per environment x tier cell (seed 003 §5); --list --panel human-140 lists the tasks"
    return [table]
