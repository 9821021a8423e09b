"""`webfovea generate`: retrieval tasks with proven answers from any site (docs/generate.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import app, fail, lit, out


@app.command()
def generate(
    site: Annotated[str, typer.Option("--site", help="The start page (http or https URL).")],
    out_file: Annotated[Path, typer.Option("--out", help="The task file to write (JSON).")] = Path(
        "tasks.json"
    ),
    max_pages: Annotated[int, typer.Option("--max-pages", min=1, help="Pages explored at most.")] = 20,
    max_tasks: Annotated[int, typer.Option("--max-tasks", min=1, help="Tasks written at most.")] = 20,
    seed: Annotated[
        int, typer.Option("--seed", help="Which cells are asked for (same seed, same tasks).")
    ] = 0,
) -> None:
    """Explore SITE as a user would (its links, visible tables, label/value lists and linked CSV
    files) and write retrieval tasks whose answers it read, each with its proof (page, links
    followed, table, row, column, value), category and difficulty. `webfovea bench OUT` runs them."""
    import asyncio
    import json

    from webfovea.generate.explore import explore
    from webfovea.generate.tasks import make_tasks

    if not site.startswith(("http://", "https://")):
        raise fail(
            f"--site {site!r} is not an http(s) URL: give the start page, e.g. https://example.org/stats"
        )
    found = asyncio.run(explore(site, max_pages=max_pages))
    if not found.pages:
        raise fail(f"no page of {site} could be read: {'; '.join(found.skipped) or 'nothing loaded'}")
    tasks = make_tasks(found, seed=seed, max_tasks=max_tasks)
    if not tasks:
        raise fail(
            f"read {len(found.pages)} page(s) of {found.site} but found no table or label list to ask about"
        )
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(
        json.dumps([t.model_dump(exclude_none=True) for t in tasks], indent=1, ensure_ascii=False) + "\n"
    )
    tables = sum(len(p.tables) for p in found.pages)
    out.print(
        f"{len(tasks)} task(s) in {lit(str(out_file))} from {len(found.pages)} page(s) and {tables} table(s) of "
        f"{lit(found.site)}",
        highlight=False,
    )
    for line in found.skipped:
        out.print(f"  skipped {lit(line)}", highlight=False)
