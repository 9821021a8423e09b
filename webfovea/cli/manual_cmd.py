"""`webfovea manual`: Protocol II's manuals from a judged run (docs/judge.md, "Manuals")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import BaseUrlOpt, ConsoleReporter, ModelsOpt, app, app_errors, fail, lit, out


@app.command()
def manual(
    run_dir: Annotated[
        Path, typer.Argument(help="A judged run folder (RUN/judge from `webfovea judge run`).")
    ],
    writer: Annotated[
        str | None,
        typer.Option(
            "--writer",
            help="The model that writes each manual (the manuals role): a model spec (openai:MODEL, "
            "anthropic:MODEL, oracle: deterministic, for tests). Default: the --models file's manuals.",
        ),
    ] = None,
    retries: Annotated[
        int,
        typer.Option(
            "--retries",
            help="Re-run a task whose trajectory was not judged successful (then judge it again) "
            "up to this many times; what is still failing goes to needs_review.json.",
        ),
    ] = 0,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="The manuals folder (default RUN/manuals).")
    ] = None,
    method: Annotated[
        str | None, typer.Option("--method", help="Judge method for the re-runs (default: the run's).")
    ] = None,
    judge: Annotated[
        str | None, typer.Option("--judge", help="Judge model for the re-runs (default: the run's).")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="Agent model for the re-runs (default: the run's).")
    ] = None,
    base_url: BaseUrlOpt = None,
    models: ModelsOpt = None,
) -> None:
    """Write a manual for each task of RUN_DIR judged successful; re-run the others (--retries),
    and list what is left for a person to refine. `bench --protocol II --manuals DIR` takes them."""
    from webfovea.app.config import read_routes
    from webfovea.app.errors import AppError
    from webfovea.app.manuals import ManualOptions, run_manuals
    from webfovea.models.routes import pick

    with app_errors():
        routes = read_routes(models)
    # --writer and --model win over the file's manuals and act lines (models/routes.py)
    route, act = pick("manuals", writer, None, routes), pick("act", model, None, routes)
    if route is None:
        raise fail("give --writer SPEC, or a --models file with a manuals line")
    options = ManualOptions(
        run_dir=run_dir,
        writer=route.model,
        retries=retries,
        out_dir=out_dir,
        method=method,
        judge=judge,
        model=act.model if act is not None else None,
        base_url=base_url or route.base_url,
    )
    try:
        result = run_manuals(options, ConsoleReporter())
    except AppError as e:
        raise fail(str(e)) from None
    out.print(
        f"{len(result.written)} manual(s) in {lit(str(result.out_dir))}; "
        f"{len(result.needs_review)} task(s) need review (needs_review.json)",
        highlight=False,
    )
    for p in result.needs_review:
        out.print(f"  {lit(p.task_id)}: {lit(p.why)}", highlight=False)
