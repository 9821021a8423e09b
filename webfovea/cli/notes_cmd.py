"""`webfovea notes`: operating notes per site from judged runs, and their publication after
people reviewed them (docs/site-notes.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import BaseUrlOpt, ConsoleReporter, ModelsOpt, app, app_errors, fail, lit, out


@app.command()
def notes(
    runs: Annotated[
        list[Path] | None, typer.Argument(help="Judged run folders (RUN/judge from `webfovea judge run`).")
    ] = None,
    writer: Annotated[
        str | None,
        typer.Option(
            "--writer",
            help="The model that writes each site's notes (the manuals role): a model spec "
            "(openai:MODEL, anthropic:MODEL, oracle). Default: the --models file's manuals line.",
        ),
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Where the drafts go (default: the first RUN's site-notes/).")
    ] = None,
    publish: Annotated[
        Path | None,
        typer.Option(
            "--publish",
            help="A drafts folder: copy its accepted and edited notes (reviews.jsonl) to --to; no writing.",
        ),
    ] = None,
    to: Annotated[
        Path | None, typer.Option("--to", help="With --publish: the folder a run's site_notes_dir names.")
    ] = None,
    base_url: BaseUrlOpt = None,
    models: ModelsOpt = None,
) -> None:
    """Write each site's operating notes from the successful tasks of RUNS (drafts for people to
    review, like manuals), or publish the reviewed drafts (--publish DRAFTS --to DIR) for
    an A/B arm's `site_notes_dir=DIR`."""
    from webfovea.app.config import read_routes
    from webfovea.app.errors import AppError
    from webfovea.app.site_notes import publish_site_notes, write_site_notes
    from webfovea.models.routes import pick

    if publish is not None:
        if to is None or runs:
            raise fail("--publish DRAFTS needs --to DIR, and takes no run folders")
        try:
            published = publish_site_notes(publish, to)
        except AppError as e:
            raise fail(str(e)) from None
        out.print(f"{len(published)} site note(s) published in {lit(str(to))}", highlight=False)
        for name, decision in published.items():
            out.print(f"  {lit(name)}: {decision}", highlight=False)
        return
    if not runs:
        raise fail("give judged run folders (or --publish DRAFTS --to DIR)")
    with app_errors():
        routes = read_routes(models)
    route = pick("manuals", writer, None, routes)
    if route is None:
        raise fail("give --writer SPEC, or a --models file with a manuals line")
    target = out_dir or runs[0] / "site-notes"
    try:
        result = write_site_notes(
            list(runs), route.model, target, base_url=base_url or route.base_url, reporter=ConsoleReporter()
        )
    except AppError as e:
        raise fail(str(e)) from None
    out.print(
        f"notes for {len(result.written)} site(s) in {lit(str(target))} (drafts: review them in "
        f"reviews.jsonl, then `webfovea notes --publish {target} --to DIR`)",
        highlight=False,
    )
    for site, why in result.failed.items():
        out.print(f"  {lit(site)}: {lit(why)}", highlight=False)
