"""BreakingWeb's catalogue on a terminal (`webfovea bench breakingweb --list`): the counts, the
apps and the intervention families, drawn from its block of the listing
(`extensions.breakingweb`, `pairing.catalogue`); `--list --json` carries the block as it is."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def catalogue_tables(data: dict[str, Any]) -> list[Table]:
    """The counts, the apps and the families (layer, primitive, counterpart, where it applies)."""
    counts = data.get("counts", {})
    head = Table(title=f"catalogue · seed {data.get('seed')}")
    head.add_column("what")
    head.add_column("count", justify="right")
    for key in ("apps", "base_tasks", "families"):
        head.add_row(key.replace("_", " "), str(counts.get(key, 0)))
    for layer, n in (counts.get("families_per_layer") or {}).items():
        head.add_row(f"  families on the {layer} layer", str(n))
    for pairing, n in (counts.get("pairs") or {}).items():
        head.add_row(f"pairs ({pairing})", str(n))
    apps = Table(title="apps")
    for col in ("app", "page", "tasks", "state-changing", "retrieval"):
        apps.add_column(col, justify="right" if col in ("tasks", "state-changing", "retrieval") else "left")
    for a in data.get("apps", []):
        apps.add_row(
            a["name"],
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
    fams.caption = "* added by this project beyond the seed's catalogue text"
    return [head, apps, fams]
