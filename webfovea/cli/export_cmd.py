"""`webfovea export`: a finished run in another tool's folder layout, or as training records."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import app, fail, lit, out

FORMATS = ("webretriever", "sft", "dpo")


@app.command()
def export(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="RUN_DIR OUT_DIR: a finished run folder and a new or empty folder to write into "
            "(--format dpo: RUN_DIR... OUT_DIR, one or more runs)."
        ),
    ],
    fmt: Annotated[
        str, typer.Option("--format", help=f"What to write: {', '.join(FORMATS)}.")
    ] = "webretriever",
    flt: Annotated[
        str,
        typer.Option(
            "--filter",
            help="webretriever: which request filter writes filtered_requests.json: webfovea (ours), "
            "naveval (NavEval's, as we reimplement it) or none (WebRetriever's own filter stage writes it).",
        ),
    ] = "webfovea",
    per: Annotated[str, typer.Option("--per", help="sft: one record per step, or per episode.")] = "step",
    verdict: Annotated[
        str, typer.Option("--verdict", help="sft: the tasks to take: pass (judged passed) or any (judged).")
    ] = "pass",
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="sft/dpo: whose verdicts: a judge method's records (RUN/judges/METHOD or RUN/judge); "
            "default: the site's truth when recorded, else the run's own scoring.",
        ),
    ] = None,
    grammar: Annotated[
        str,
        typer.Option("--grammar", help="sft/dpo: the replies in webfovea's text grammar, or uitars (1.5)."),
    ] = "webfovea",
    force: Annotated[
        bool,
        typer.Option("--force", help="sft/dpo: replace OUT_DIR when it holds an earlier training export."),
    ] = False,
) -> None:
    """Write finished runs in another tool's layout, or as training records.

    `--format webretriever`: one folder per task as WebRetriever's NavEval evaluator reads it
    (result.json with its statuses, trajectory/<step>.png, capture.json `all_requests`,
    filtered_requests.json). Statuses come from how each task ended, never from its truth.

    `--format sft`: judged trajectories as chat records with images (LLaMA-Factory / ms-swift
    sft.jsonl, TRL sft_trl.jsonl, dataset_info.json, metadata.json). `--format dpo`: where a
    task passed in one trajectory and failed in another, their first diverging step as a
    preference pair. docs/export.md says what is written.
    """
    from webfovea.export import ExportError, export_webretriever
    from webfovea.export.training import TrainingOptions, export_training

    if fmt not in FORMATS:
        raise fail(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if len(paths) < 2:
        raise fail("give a run folder and the folder to write into: webfovea export RUN_DIR OUT_DIR")
    *runs, out_dir = paths
    if fmt != "dpo" and len(runs) != 1:
        raise fail(f"--format {fmt} exports one run: webfovea export RUN_DIR OUT_DIR")
    try:
        if fmt == "webretriever":
            summary = export_webretriever(runs[0], out_dir, flt=flt)
        else:
            opts = TrainingOptions(
                fmt=fmt, per=per, verdict=verdict, judge=judge, grammar=grammar, force=force
            )
            training = export_training(runs, out_dir, opts)
    except ExportError as e:
        raise fail(str(e)) from None
    if fmt != "webretriever":
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(training.verdicts.items()))
        out.print(
            f"exported {training.records} {fmt} records from {training.tasks} tasks to {lit(str(out_dir))} "
            f"({training.images} images; tasks judged: {verdicts}; {training.duplicates} duplicates dropped, "
            f"{training.left_out_steps} steps left out)",
            highlight=False,
        )
        for task, why in training.skipped.items():
            out.print(f"  [yellow]{lit(task)}[/]: {lit(why)}", highlight=False)
        return
    counts = ", ".join(f"{k or '(empty)'} {v}" for k, v in sorted(summary.statuses.items()))
    out.print(f"exported {summary.tasks} tasks to {lit(str(out_dir))} ({counts})", highlight=False)
    out.print(f"{summary.filtered} with filtered_requests.json (filter: {flt})", highlight=False)
    for task_id, problems in summary.problems.items():
        out.print(f"  [yellow]{lit(task_id)}[/]: {lit('; '.join(problems))}", highlight=False)
