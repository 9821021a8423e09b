"""What a suite holds, without running it: `webfovea bench NAME --list` (Rich tables) and
`--list --json`. The suite's `catalogue` reads its registries (BreakingWeb: apps, tasks,
families, pairs), so what is added to them is listed without a change here."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from webfovea.app.bench import suite_defaults
from webfovea.app.errors import AppError
from webfovea.suites import SUITES


def suite_catalogue(suite: str, seed: int | None = None) -> dict[str, Any]:
    """The suite's catalogue for the seed (default: the suite's); AppError for a suite that has none."""
    found = SUITES.get(suite)
    if found is None or found.catalogue is None:
        takers = [n for n, s in SUITES.items() if s.catalogue is not None]
        where = " and ".join(takers) or "no"
        raise AppError(f"--list applies to the {where} suite{'s' if len(takers) > 1 else ''} only")
    seed, _ = suite_defaults(suite, seed, None)
    return found.catalogue(seed)


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
