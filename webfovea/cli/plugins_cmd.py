"""`webfovea plugins`: every registry, what is in it and where each item came from; the hook
plug-ins; the plug-ins that failed to load and why (docs/plugins.md)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from webfovea.cli.common import app, out


def _registries() -> list[Any]:
    # The product's own registries are defined where their items live; importing those
    # modules creates them. Plug-ins announce theirs through `webfovea_registries`.
    import webfovea.actions.catalog
    import webfovea.driving.environment
    import webfovea.judge.catalog
    import webfovea.models.factory
    import webfovea.observation.modes
    import webfovea.suites  # noqa: F401
    from webfovea.plugins import all_registries, plugin_manager

    for batch in plugin_manager().hook.webfovea_registries():
        list(batch or ())  # their modules imported: their registries exist now
    return list(all_registries())


def inventory() -> dict[str, Any]:
    """What `webfovea plugins --json` prints."""
    from webfovea.plugins import hook_plugins, plugin_problems

    registries = _registries()
    problems = [str(p) for r in registries for p in r.problems()] + [str(p) for p in plugin_problems()]
    return {
        "registries": [
            {
                "kind": r.kind,
                "entry_point_group": r.group,
                "items": [{"name": n, "from": str(r.origin(n))} for n in r.names()],
            }
            for r in registries
        ],
        "hook_plugins": [{"name": n, "from": o} for n, o in hook_plugins()],
        "problems": problems,
    }


@app.command()
def plugins(
    as_json: Annotated[bool, typer.Option("--json", help="Print the inventory as JSON.")] = False,
) -> None:
    """List every extension point (its entry-point group), what is registered in it and from which
    distribution, the hook plug-ins, and every plug-in that failed to load with why."""
    data = inventory()
    if as_json:
        out.print_json(json.dumps(data))
        return
    table = Table(title="registries")
    for col in ("kind", "entry-point group", "items (from)"):
        table.add_column(col)
    for r in data["registries"]:
        by_origin: dict[str, list[str]] = {}
        for item in r["items"]:
            by_origin.setdefault(item["from"], []).append(item["name"])
        shown = "; ".join(f"{', '.join(names)} ({origin})" for origin, names in by_origin.items())
        table.add_row(r["kind"], r["entry_point_group"], shown or "-")
    out.print(table)
    for hp in data["hook_plugins"]:
        out.print(f"hook plug-in {hp['name']} from {hp['from']}")
    for problem in data["problems"]:
        out.print(f"[red]not loaded[/red]: {problem}")
