"""`webfovea export`: a finished run in another tool's folder layout."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import app, fail, lit, out

FORMATS = ("webretriever",)


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="A finished run folder (e.g. runs/builtin-webfovea).")],
    out_dir: Annotated[Path, typer.Argument(help="A new or empty folder to write the export into.")],
    fmt: Annotated[str, typer.Option("--format", help=f"The layout to write: {', '.join(FORMATS)}.")] = (
        "webretriever"
    ),
    flt: Annotated[
        str,
        typer.Option(
            "--filter",
            help="Which request filter writes filtered_requests.json: webfovea (ours), naveval "
            "(NavEval's, as we reimplement it) or none (WebRetriever's own filter stage writes it).",
        ),
    ] = "webfovea",
) -> None:
    """Write RUN_DIR in another tool's layout, so that tool's own evaluator can judge it.

    `--format webretriever`: one folder per task as WebRetriever's NavEval evaluator reads it
    (result.json with its statuses, trajectory/<step>.png, capture.json `all_requests`,
    filtered_requests.json). Statuses come from how each task ended, never from its truth.
    docs/export.md says what is written and how to run WebRetriever's evaluator on it.
    """
    from webfovea.export import ExportError, export_webretriever

    if fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    try:
        summary = export_webretriever(run_dir, out_dir, flt=flt)
    except ExportError as e:
        raise fail(str(e)) from None
    counts = ", ".join(f"{k or '(empty)'} {v}" for k, v in sorted(summary.statuses.items()))
    out.print(f"exported {summary.tasks} tasks to {lit(str(out_dir))} ({counts})", highlight=False)
    out.print(f"{summary.filtered} with filtered_requests.json (filter: {flt})", highlight=False)
    for task_id, problems in summary.problems.items():
        out.print(f"  [yellow]{lit(task_id)}[/]: {lit('; '.join(problems))}", highlight=False)
